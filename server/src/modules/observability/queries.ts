import type { Queryable } from '../../db/index.ts';

export type VitalRow = {
  page: string;
  name: string;
  value: number;
  rating: string;
  appVersion: string | null;
};
export type ItemRow = { kind: 'log' | 'exception' | 'event'; page: string; body: unknown };

export async function insertVitals(q: Queryable, at: Date, rows: VitalRow[]): Promise<void> {
  if (!rows.length) return;
  await q.query(
    `insert into web_vitals (received_at, page, name, value, rating, app_version)
     select $1, * from unnest($2::text[], $3::text[], $4::float8[], $5::text[], $6::text[])`,
    [
      at,
      rows.map((r) => r.page),
      rows.map((r) => r.name),
      rows.map((r) => r.value),
      rows.map((r) => r.rating),
      rows.map((r) => r.appVersion),
    ],
  );
}

export async function insertItems(q: Queryable, at: Date, rows: ItemRow[]): Promise<void> {
  if (!rows.length) return;
  await q.query(
    `insert into telemetry_items (received_at, kind, page, body)
     select $1, k, p, b::jsonb from unnest($2::text[], $3::text[], $4::text[]) as t(k, p, b)`,
    [at, rows.map((r) => r.kind), rows.map((r) => r.page), rows.map((r) => JSON.stringify(r.body))],
  );
}

/** Deletes what is past its retention. */
export async function prune(q: Queryable, vitalsBefore: Date, itemsBefore: Date): Promise<void> {
  await q.query('delete from web_vitals where received_at < $1', [vitalsBefore]);
  await q.query('delete from telemetry_items where received_at < $1', [itemsBefore]);
}

export type VitalStatRow = {
  page: string;
  name: string;
  day_p75: number | null;
  day_n: number;
  week_p75: number;
  week_n: number;
};

/** p75 per page and vital since `weekFrom`, and since `dayFrom`; the most measured pages first. */
export const vitalStats = (q: Queryable, dayFrom: Date, weekFrom: Date, pages: number) =>
  q.query<VitalStatRow>(
    `with top as (
       select page from web_vitals where received_at >= $2 group by page order by count(*) desc, page limit $3
     )
     select v.page, v.name,
            percentile_cont(0.75) within group (order by v.value) filter (where v.received_at >= $1) as day_p75,
            (count(*) filter (where v.received_at >= $1))::int as day_n,
            percentile_cont(0.75) within group (order by v.value) as week_p75,
            count(*)::int as week_n
       from web_vitals v join top using (page)
      where v.received_at >= $2
      group by v.page, v.name
      order by v.page, v.name`,
    [dayFrom, weekFrom, pages],
  );
