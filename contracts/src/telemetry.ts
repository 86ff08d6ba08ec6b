import { z } from 'zod';

/** Spec §9: the application's display name, version and environment (the build may set the last two). */
export const APP_META = { name: 'SmartConnect', version: '1.0.0', environment: 'production' } as const;

/** Spec §9 telemetry constants (they are the Grafana Faro web SDK's; the web app sets them explicitly). */
export const TELEMETRY = {
  bufferSize: 30,
  concurrency: 5,
  backoffMs: 5000,
  keepaliveLimit: 60000,
  traceBatch: 30,
  traceDelayMs: 1000,
  userActionQuietMs: 100,
  pendingRequestTimeoutMs: 10_000,
  sessionHeader: 'x-faro-session-id',
  apiKeyHeader: 'x-api-key',
  sessionStatusHeader: 'x-faro-session-status',
} as const;

export const WEB_VITALS = ['FCP', 'LCP', 'CLS', 'INP', 'FID', 'TTFB'] as const;
export type WebVital = (typeof WEB_VITALS)[number];
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/** Spec §9 web-vitals thresholds [good, poor]: good up to the first, poor above the second (ms; CLS unitless). */
export const WEB_VITAL_THRESHOLDS: Record<WebVital, readonly [number, number]> = {
  FCP: [1800, 3000],
  LCP: [2500, 4000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  FID: [100, 300],
  TTFB: [800, 1800],
};

/** Rates a value as web-vitals does: at most `good` is good, above `poor` is poor, between needs improvement. */
export function rateVital(name: WebVital, value: number): VitalRating {
  const [good, poor] = WEB_VITAL_THRESHOLDS[name];
  if (value <= good) return 'good';
  if (value <= poor) return 'needs-improvement';
  return 'poor';
}

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
