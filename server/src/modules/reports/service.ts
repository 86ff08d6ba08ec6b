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
  hour: Date;
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

export type ResolvedPeriod = { start: Date; end: Date; from: string; to: string; timeZone: string };

/**
 * The period of a report query in its zone: the query's `timeZone`, else the organisation's (organisations.time_zone).
 * 400 for an unknown zone or more than REPORT_MAX_DAYS days.
 */
export async function resolveReportPeriod(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
): Promise<ResolvedPeriod> {
  const timeZone =
    query.timeZone ??
    (await maybe<{ time_zone: string }>(app.db, 'select time_zone from organisations where id = $1', [orgId]))
      ?.time_zone ??
    'UTC';
  if (!isTimeZone(timeZone))
    throw new AppError('validationException', { timeZone: FIELD_MESSAGES.valueIncorrect });
  const name = (query.period ?? 'custom') as PeriodName;
  const period = resolvePeriod(name, app.clock.now(), timeZone, query.from, query.to);
  if (dayCount(period.from, period.to) > REPORT_MAX_DAYS)
    throw new AppError('validationException', {
      // At most REPORT_MAX_DAYS days in one report.
      to: FIELD_MESSAGES.valueIncorrect,
    });
  return { ...period, timeZone };
}

/** The dialogs report of an organisation (optionally one operator, channel or team) from the hourly rollups. */
export async function dialogsReport(
  app: AppContext,
  orgId: string,
  query: ReportQuery,
  only: { operatorId?: string } = {},
): Promise<DialogsReport> {
  const period = await resolveReportPeriod(app, orgId, query);
  const params: unknown[] = [orgId, period.start.toISOString(), period.end.toISOString()];
  const where = ['organisation_id = $1', 'hour >= $2', 'hour < $3'];
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
  const hours = await app.db.query<HourRow>(
    `select hour, sum(dialogs_new)::int as dialogs_new, sum(dialogs_closed)::int as dialogs_closed,
            sum(dialogs_transferred)::int as dialogs_transferred,
            sum(first_response_count)::int as first_response_count,
            sum(first_response_sum_ms)::bigint as first_response_sum_ms,
            sum(handling_count)::int as handling_count, sum(handling_sum_ms)::bigint as handling_sum_ms,
            sum(rating_1)::int as r1, sum(rating_2)::int as r2, sum(rating_3)::int as r3, sum(rating_4)::int as r4,
            sum(rating_5)::int as r5, sum(messages_in)::int as messages_in, sum(messages_out)::int as messages_out
       from report_dialog_hourly where ${cond} group by hour`,
    params,
  );
  const hist = await app.db.query<{ hour: Date; metric: string; bucket: number; count: number }>(
    `select hour, metric, bucket, sum(count)::int as count from report_duration_hist where ${cond}
      group by hour, metric, bucket`,
    params,
  );

  const tz = period.timeZone;
  const points = new Map<string, { at: string; label: string; s: Sums }>();
  if (query.groupBy === 'day') {
    for (let d = period.from; d <= period.to; d = addDays(d, 1))
      points.set(d, { at: zonedMidnight(d, tz).toISOString(), label: d, s: emptySums() });
  } else {
    for (let t = period.start.getTime(); t < period.end.getTime(); t += 3_600_000) {
      const hourStart = t - (t % 3_600_000);
      const p = localParts(hourStart, tz);
      const label = `${localDate(hourStart, tz)} ${String(p.h).padStart(2, '0')}:${String(p.min).padStart(2, '0')}`;
      points.set(String(hourStart), { at: new Date(hourStart).toISOString(), label, s: emptySums() });
    }
  }
  // Each hour's local date is formatted once (the rollup and histogram rows repeat hours).
  const dayOfHour = new Map<number, string>();
  const pointOf = (hour: Date) => {
    const t = new Date(hour).getTime();
    if (query.groupBy === 'hour') return points.get(String(t));
    let day = dayOfHour.get(t);
    if (day === undefined) {
      day = localDate(t, tz);
      dayOfHour.set(t, day);
    }
    return points.get(day);
  };
  const totals = emptySums();
  for (const r of hours) {
    const point = pointOf(r.hour);
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
    const point = pointOf(h.hour);
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
