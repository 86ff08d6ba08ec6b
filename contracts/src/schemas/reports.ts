import { z } from 'zod';
import { FIELD_MESSAGES as M } from '../messages.ts';

/** §9 report periods: today, yesterday, last 7 days, last 30 days, custom range ('custom') or one date ('date'). */
export const reportPeriods = ['today', 'yesterday', 'last7', 'last30', 'custom', 'date'] as const;
export type ReportPeriod = (typeof reportPeriods)[number];
/** §5: a report needs a start and end date or a chosen period. */
export const REPORT_PERIOD_REQUIRED = M.reportPeriodRequired;
export const REPORT_MAX_DAYS = 366;

const isoDate = z.string(M.reportPeriodRequired).regex(/^\d{4}-\d{2}-\d{2}$/, M.reportPeriodRequired);

const reportQueryBase = z.object({
  period: z.enum(reportPeriods, M.reportPeriodRequired).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  groupBy: z.enum(['day', 'hour'], M.valueIncorrect).default('day'),
  /** IANA zone the periods and days are counted in; the organisation's zone when absent. */
  timeZone: z.string(M.valueIncorrect).max(64, M.valueIncorrect).optional(),
  /** Categories report: also count requests closed without a category. */
  includeWithoutCategory: z.enum(['true', 'false'], M.valueIncorrect).optional(),
  channelId: z.uuid(M.valueIncorrect).optional(),
  teamId: z.uuid(M.valueIncorrect).optional(),
  operatorId: z.uuid(M.valueIncorrect).optional(),
});
type PeriodFields = { period?: ReportPeriod; from?: string; to?: string };
function refinePeriod(q: PeriodFields, ctx: z.RefinementCtx) {
  {
    const period = q.period ?? (q.from && q.to ? 'custom' : undefined);
    const needs =
      period === undefined || (period === 'custom' && (!q.from || !q.to)) || (period === 'date' && !q.from);
    if (needs) ctx.addIssue({ code: 'custom', path: ['period'], message: REPORT_PERIOD_REQUIRED });
    else if (period === 'custom' && q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_PERIOD_REQUIRED });
  }
}
export const reportQuerySchema = reportQueryBase.superRefine(refinePeriod);
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
export const reportPeriodDto = z.object({
  from: z.string(),
  to: z.string(),
  start: z.string(),
  end: z.string(),
  timeZone: z.string(),
});
export const dialogsReportDto = z.object({
  period: reportPeriodDto,
  groupBy: z.enum(['day', 'hour']),
  totals: dialogFiguresDto,
  /** One point per local day or per UTC hour of the period, empty ones included; `label` is local. */
  series: z.array(dialogFiguresDto.extend({ at: z.string(), label: z.string() })),
});
export type DialogsReport = z.infer<typeof dialogsReportDto>;
export const reportRebuildDto = z.object({ batches: z.number().int() });

/** The report kinds of `GET /api/reports/{kind}`. */
export const reportKinds = [
  'summary',
  'dialogs',
  'channels',
  'employees',
  'teams',
  'time',
  'categories',
] as const;
export type ReportKind = (typeof reportKinds)[number];

/**
 * Summary: one row per channel (site) and per operator. Accepted messages are client messages received; missed
 * are client messages of dialogs closed with no operator reply. Online and break time are operators' only.
 */
export const summaryRowDto = z.object({
  kind: z.enum(['channel', 'operator']),
  id: z.string(),
  name: z.string(),
  onlineSeconds: z.number().int().nullable(),
  breakSeconds: z.number().int().nullable(),
  dialogs: z.number().int(),
  acceptedMessages: z.number().int(),
  missedMessages: z.number().int(),
});
export type SummaryRow = z.infer<typeof summaryRowDto>;
export const summaryReportDto = z.object({ period: reportPeriodDto, rows: z.array(summaryRowDto) });
export type SummaryReport = z.infer<typeof summaryReportDto>;
export const summaryExportQuerySchema = reportQueryBase
  .extend({ format: z.enum(['csv', 'xlsx'], M.valueIncorrect).default('csv') })
  .superRefine(refinePeriod);

/** Channels, employees, teams: the Dialogs figures per row. */
export const groupedRowDto = dialogFiguresDto.extend({ id: z.string(), name: z.string() });
export type GroupedRow = z.infer<typeof groupedRowDto>;
export const groupedReportDto = z.object({ period: reportPeriodDto, rows: z.array(groupedRowDto) });
export type GroupedReport = z.infer<typeof groupedReportDto>;

/** Working time: each operator's In work ('online') / Break / offline intervals, cut to the period and now. */
export const presenceIntervalDto = z.object({
  state: z.enum(['online', 'break', 'offline']),
  start: z.string(),
  end: z.string(),
});
export const timeRowDto = z.object({
  userId: z.string(),
  name: z.string(),
  onlineSeconds: z.number().int(),
  breakSeconds: z.number().int(),
  offlineSeconds: z.number().int(),
  intervals: z.array(presenceIntervalDto),
});
export type TimeRow = z.infer<typeof timeRowDto>;
export const timeReportDto = z.object({ period: reportPeriodDto, rows: z.array(timeRowDto) });
export type TimeReport = z.infer<typeof timeReportDto>;

/** Inquiry categories: requests closed per channel and category (null: without a category, on request). */
export const categoryRowDto = z.object({
  channelId: z.string(),
  channelName: z.string(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  requests: z.number().int(),
});
export type CategoryRow = z.infer<typeof categoryRowDto>;
export const categoriesReportDto = z.object({ period: reportPeriodDto, rows: z.array(categoryRowDto) });
export type CategoriesReport = z.infer<typeof categoriesReportDto>;
