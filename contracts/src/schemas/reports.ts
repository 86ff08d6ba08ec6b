import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** §9 report periods: today, yesterday, last 7 days, last 30 days, custom range ('custom') or one date ('date'). */
export const reportPeriods = ['today', 'yesterday', 'last7', 'last30', 'custom', 'date'] as const;
export type ReportPeriod = (typeof reportPeriods)[number];
/** §5: a report needs a start and end date or a chosen period. */
export const REPORT_PERIOD_REQUIRED = M.reportPeriodRequired;
export const REPORT_MAX_DAYS = 366;

const isoDate = z.string(M.reportPeriodRequired).regex(/^\d{4}-\d{2}-\d{2}$/, M.reportPeriodRequired);

export const reportQuerySchema = z
  .object({
    period: z.enum(reportPeriods, M.reportPeriodRequired).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    groupBy: z.enum(['day', 'hour'], M.valueIncorrect).default('day'),
    /** IANA zone the periods and days are counted in; UTC when absent. */
    timeZone: z.string(M.valueIncorrect).max(64, M.valueIncorrect).default('UTC'),
    channelId: z.uuid(M.valueIncorrect).optional(),
    teamId: z.uuid(M.valueIncorrect).optional(),
    operatorId: z.uuid(M.valueIncorrect).optional(),
  })
  .superRefine((q, ctx) => {
    const period = q.period ?? (q.from && q.to ? 'custom' : undefined);
    const needs =
      period === undefined || (period === 'custom' && (!q.from || !q.to)) || (period === 'date' && !q.from);
    if (needs) ctx.addIssue({ code: 'custom', path: ['period'], message: REPORT_PERIOD_REQUIRED });
    else if (period === 'custom' && q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_PERIOD_REQUIRED });
  });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

export const durationFiguresDto = z.object({
  count: z.number().int(),
  avgSeconds: z.number().nullable(),
  medianSeconds: z.number().nullable(),
  p90Seconds: z.number().nullable(),
});
export const dialogFiguresDto = z.object({
  dialogsNew: z.number().int(),
  dialogsClosed: z.number().int(),
  dialogsTransferred: z.number().int(),
  firstResponse: durationFiguresDto,
  handling: durationFiguresDto,
  /** Counts of ratings 1..5 (index 0 is score 1). */
  ratings: z.array(z.number().int()).length(5),
  ratingAverage: z.number().nullable(),
  messagesIn: z.number().int(),
  messagesOut: z.number().int(),
});
export type DialogFigures = z.infer<typeof dialogFiguresDto>;
export const dialogsReportDto = z.object({
  period: z.object({
    from: z.string(),
    to: z.string(),
    start: z.string(),
    end: z.string(),
    timeZone: z.string(),
  }),
  groupBy: z.enum(['day', 'hour']),
  totals: dialogFiguresDto,
  /** One point per local day or per UTC hour of the period, empty ones included; `label` is local. */
  series: z.array(dialogFiguresDto.extend({ at: z.string(), label: z.string() })),
});
export type DialogsReport = z.infer<typeof dialogsReportDto>;
export const reportRebuildDto = z.object({ batches: z.number().int() });
