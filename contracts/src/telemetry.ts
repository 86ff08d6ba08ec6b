import { z } from 'zod';
import { WEB_VITALS } from './telemetry-constants.ts';

export * from './telemetry-constants.ts';

/** GET /api/telemetry/config: whether and where the web app sends its telemetry. */
export const telemetryConfigDto = z.object({
  enabled: z.boolean(),
  url: z.string(),
  apiKey: z.string().nullable(),
});
export type TelemetryConfigDto = z.infer<typeof telemetryConfigDto>;

const shortText = z.string().max(2000);
/**
 * What the collector accepts (the Faro transport body): meta, and bounded lists of measurements, logs, exceptions
 * and events. Unknown fields are dropped; a body over the route's size limit is refused before this.
 */
export const telemetryPayload = z.object({
  meta: z
    .object({
      app: z
        .object({
          name: shortText.optional(),
          version: shortText.optional(),
          environment: shortText.optional(),
        })
        .optional(),
      session: z.object({ id: z.string().max(100).optional() }).optional(),
      page: z.object({ url: shortText.optional(), id: z.string().max(200).optional() }).optional(),
    })
    .optional(),
  measurements: z
    .array(
      z.object({
        type: z.string().max(100),
        values: z.record(z.string().max(100), z.number()),
        timestamp: z.string().max(64).optional(),
        context: z.record(z.string().max(100), z.unknown()).optional(),
      }),
    )
    .max(200)
    .optional(),
  logs: z
    .array(z.object({ message: shortText, level: z.string().max(20).optional() }))
    .max(200)
    .optional(),
  exceptions: z
    .array(z.object({ type: shortText, value: shortText.optional() }))
    .max(200)
    .optional(),
  events: z
    .array(z.object({ name: shortText, domain: shortText.optional() }))
    .max(200)
    .optional(),
  traces: z.unknown().optional(),
});
export type TelemetryPayload = z.infer<typeof telemetryPayload>;

const vitalStat = z.object({
  name: z.enum(WEB_VITALS),
  p75: z.number(),
  rating: z.enum(['good', 'needs-improvement', 'poor']),
  samples: z.number().int(),
});
/** GET /api/telemetry/vitals: per page, the p75 of each vital over the last 24 hours and the last 7 days. */
export const vitalsSummaryDto = z.object({
  pages: z.array(
    z.object({
      page: z.string(),
      day: z.array(vitalStat),
      week: z.array(vitalStat),
    }),
  ),
});
export type VitalsSummaryDto = z.infer<typeof vitalsSummaryDto>;
