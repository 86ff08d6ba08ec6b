import {
  type DialogFigures,
  type DialogsReport,
  FIELD_MESSAGES,
  REPORT_MAX_DAYS,
  type ReportQuery,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { maybe } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import {
  addDays,
  dayCount,
  isTimeZone,
  localDate,
  localParts,
  type PeriodName,
  resolvePeriod,
  zonedMidnight,
} from './period.ts';
import { quantileFromBuckets } from './rollup.ts';

type Sums = {
  dialogsNew: number;
  dialogsClosed: number;
  dialogsTransferred: number;
  frCount: number;
  frSum: number;
  hCount: number;
  hSum: number;
  ratings: number[];
  messagesIn: number;
  messagesOut: number;
  frBuckets: Map<number, number>;
  hBuckets: Map<number, number>;
};
export const emptySums = (): Sums => ({
  dialogsNew: 0,
  dialogsClosed: 0,
  dialogsTransferred: 0,
  frCount: 0,
  frSum: 0,
  hCount: 0,
  hSum: 0,
  ratings: [0, 0, 0, 0, 0],
  messagesIn: 0,
  messagesOut: 0,
  frBuckets: new Map(),
  hBuckets: new Map(),
});

const round1 = (n: number) => Math.round(n * 10) / 10;
export function figures(s: Sums): DialogFigures {
  const rated = s.ratings.reduce((a, b) => a + b, 0);
  const duration = (count: number, sum: number, buckets: Map<number, number>) => ({
    count,
    avgSeconds: count ? round1(sum / count / 1000) : null,
    medianSeconds: quantileFromBuckets(buckets, 0.5),
    p90Seconds: quantileFromBuckets(buckets, 0.9),
  });
  return {
    dialogsNew: s.dialogsNew,
    dialogsClosed: s.dialogsClosed,
    dialogsTransferred: s.dialogsTransferred,
    firstResponse: duration(s.frCount, s.frSum, s.frBuckets),
    handling: duration(s.hCount, s.hSum, s.hBuckets),
    ratings: s.ratings,
    ratingAverage: rated
      ? Math.round((s.ratings.reduce((a, c, i) => a + c * (i + 1), 0) / rated) * 100) / 100
      : null,
    messagesIn: s.messagesIn,
    messagesOut: s.messagesOut,
  };
}

type HourRow = {
  slot: number;
  dialogs_new: number;
  dialogs_closed: number;
  dialogs_transferred: number;
  first_response_count: number;
  first_response_sum_ms: number;
  handling_count: number;
  handling_sum_ms: number;
  r1: number;
  r2: number;
  r3: number;
  r4: number;
  r5: number;
  messages_in: number;
  messages_out: number;
};

/** `daily`: the report is in the organisation's own zone, so the daily rollups (its local days) answer it. */
export type ResolvedPeriod = {
  start: Date;
  end: Date;
  from: string;
  to: string;
  timeZone: string;
  daily: boolean;
};

/**
 * The period of a report query in its zone: the query's `timeZone`, else the organisation's (organisations.time_zone).
 * 400 for an unknown zone or more than REPORT_MAX_DAYS days.
 */
export async function resolveReportPeriod(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
): Promise<ResolvedPeriod> {
  const own = (
    await maybe<{ time_zone: string }>(app.db, 'select time_zone from organisations where id = $1', [orgId])
  )?.time_zone;
  const timeZone = query.timeZone ?? own ?? 'UTC';
  if (!isTimeZone(timeZone))
    throw new AppError('validationException', { timeZone: FIELD_MESSAGES.valueIncorrect });
  const name = (query.period ?? 'custom') as PeriodName;
  const period = resolvePeriod(name, app.clock.now(), timeZone, query.from, query.to);
  if (dayCount(period.from, period.to) > REPORT_MAX_DAYS)
    throw new AppError('validationException', {
      // At most REPORT_MAX_DAYS days in one report.
      to: FIELD_MESSAGES.valueIncorrect,
    });
  return { ...period, timeZone, daily: timeZone === own };
}

/**
 * Where a report reads the dialog rollups: the daily rows when it is in the organisation's zone (a period is whole
 * local days), else the hourly rows of [start, end). `range` takes the first three parameters of `params`.
 */
export function rollupSource(orgId: string, period: ResolvedPeriod, hourly = false) {
  return period.daily && !hourly
    ? {
        dialogs: 'report_dialog_daily',
        hist: 'report_duration_daily',
        range: 'organisation_id = $1 and day >= $2::date and day <= $3::date',
        params: [orgId, period.from, period.to] as unknown[],
      }
    : {
        dialogs: 'report_dialog_hourly',
        hist: 'report_duration_hist',
        range: 'organisation_id = $1 and hour >= $2 and hour < $3',
        params: [orgId, period.start.toISOString(), period.end.toISOString()] as unknown[],
      };
}

/** The dialogs report of an organisation (optionally one operator, channel or team) from the hourly rollups. */
export async function dialogsReport(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
  only: { operatorId?: string } = {},
): Promise<DialogsReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const src = rollupSource(orgId, period, query.groupBy === 'hour');
  const params = src.params;
  const where = [src.range];
  const operatorId = only.operatorId ?? query.operatorId;
  for (const [col, v] of [
    ['operator_id', operatorId],
    ['channel_id', query.channelId],
    ['team_id', query.teamId],
  ] as const) {
    if (!v) continue;
    params.push(v);
    where.push(`${col} = $${params.length}`);
  }
  const cond = where.join(' and ');
  const tz = period.timeZone;
  // By day, the rows are summed per local day in SQL (a year is 366 rows, not 8,784 hours times the histogram's
  // buckets), as the index of the day (1-based): from the daily rollups in the organisation's zone; else each hour
  // goes to the day whose local midnight (computed here) is the last at or before it, by `width_bucket` over them.
  const days: string[] = [];
  if (query.groupBy === 'day') for (let d = period.from; d <= period.to; d = addDays(d, 1)) days.push(d);
  let slot = '(extract(epoch from hour) * 1000)::bigint';
  if (days.length && period.daily) slot = `(day - $2::date) + 1`;
  else if (days.length) {
    params.push(days.map((d) => zonedMidnight(d, tz).getTime() / 1000));
    slot = `width_bucket(extract(epoch from hour)::float8, $${params.length}::float8[])`;
  }
  const hours = await app.db.query<HourRow>(
    `select ${slot} as slot, sum(dialogs_new)::int as dialogs_new, sum(dialogs_closed)::int as dialogs_closed,
            sum(dialogs_transferred)::int as dialogs_transferred,
            sum(first_response_count)::int as first_response_count,
            sum(first_response_sum_ms)::bigint as first_response_sum_ms,
            sum(handling_count)::int as handling_count, sum(handling_sum_ms)::bigint as handling_sum_ms,
            sum(rating_1)::int as r1, sum(rating_2)::int as r2, sum(rating_3)::int as r3, sum(rating_4)::int as r4,
            sum(rating_5)::int as r5, sum(messages_in)::int as messages_in, sum(messages_out)::int as messages_out
       from ${src.dialogs} where ${cond} group by 1`,
    params,
  );
  const hist = await app.db.query<{ slot: number; metric: string; bucket: number; count: number }>(
    `select ${slot} as slot, metric, bucket, sum(count)::int as count from ${src.hist} where ${cond}
      group by 1, metric, bucket`,
    params,
  );

  const points = new Map<string, { at: string; label: string; s: Sums }>();
  if (query.groupBy === 'day') {
    days.forEach((d, i) => {
      points.set(String(i + 1), { at: zonedMidnight(d, tz).toISOString(), label: d, s: emptySums() });
    });
  } else {
    for (let t = period.start.getTime(); t < period.end.getTime(); t += 3_600_000) {
      const hourStart = t - (t % 3_600_000);
      const p = localParts(hourStart, tz);
      const label = `${localDate(hourStart, tz)} ${String(p.h).padStart(2, '0')}:${String(p.min).padStart(2, '0')}`;
      points.set(String(hourStart), { at: new Date(hourStart).toISOString(), label, s: emptySums() });
    }
  }
  const pointOf = (slot: number) => points.get(String(slot));
  const totals = emptySums();
  for (const r of hours) {
    const point = pointOf(r.slot);
    for (const s of point ? [totals, point.s] : [totals]) {
      s.dialogsNew += r.dialogs_new;
      s.dialogsClosed += r.dialogs_closed;
      s.dialogsTransferred += r.dialogs_transferred;
      s.frCount += r.first_response_count;
      s.frSum += Number(r.first_response_sum_ms);
      s.hCount += r.handling_count;
      s.hSum += Number(r.handling_sum_ms);
      [r.r1, r.r2, r.r3, r.r4, r.r5].forEach((n, i) => {
        s.ratings[i] += n;
      });
      s.messagesIn += r.messages_in;
      s.messagesOut += r.messages_out;
    }
  }
  for (const h of hist) {
    const point = pointOf(h.slot);
    for (const s of point ? [totals, point.s] : [totals]) {
      const m = h.metric === 'first_response' ? s.frBuckets : s.hBuckets;
      m.set(h.bucket, (m.get(h.bucket) ?? 0) + h.count);
    }
  }
  return {
    period: {
      from: period.from,
      to: period.to,
      start: period.start.toISOString(),
      end: period.end.toISOString(),
      timeZone: tz,
    },
    groupBy: query.groupBy,
    totals: figures(totals),
    series: [...points.values()].map((p) => ({ at: p.at, label: p.label, ...figures(p.s) })),
  };
}
