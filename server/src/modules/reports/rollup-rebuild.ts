import type { Db, Queryable } from '../../db/index.ts';
import {
  COLUMNS,
  catchUpRollups,
  DEFAULT_LAG_MS,
  DURATION_BOUNDS_S,
  NIL,
  openWritersSince,
  REPLY,
  uuidV7Floor,
} from './rollup.ts';

/*
 * Rebuilding the rollups from history in set-based statements (`npm run reports:rebuild`, a change of time zone):
 * the same counts the periodic fold (rollup.ts) reaches row by row.
 */

/** Epoch milliseconds of a timestamptz, truncated to the millisecond as the driver's Date is. */
const epochMs = (x: string) => `(extract(epoch from date_trunc('milliseconds', ${x})) * 1000)::bigint`;
const hourSql = (x: string) => `date_trunc('hour', ${x}, 'UTC')`;
const bucketSql = (msExpr: string) =>
  `width_bucket((${msExpr}) / 1000.0, array[${DURATION_BOUNDS_S.join(', ')}]::numeric[])`;
const COUNTER_LIST = COLUMNS.join(', ');

/** The daily rollups (of one organisation, or all) summed from the hourly ones by local day of its zone. */
async function buildDailyRollups(q: Queryable, orgId?: string) {
  const only = orgId ? 'where h.organisation_id = $1' : '';
  const params = orgId ? [orgId] : [];
  await q.query(
    `insert into report_dialog_daily (organisation_id, day, channel_id, team_id, operator_id, ${COUNTER_LIST})
     select h.organisation_id, (h.hour at time zone o.time_zone)::date, h.channel_id, h.team_id, h.operator_id,
            ${COLUMNS.map((c) => `sum(h.${c})`).join(', ')}
       from report_dialog_hourly h join organisations o on o.id = h.organisation_id ${only}
      group by 1, 2, 3, 4, 5`,
    params,
  );
  await q.query(
    `insert into report_duration_daily (organisation_id, day, channel_id, team_id, operator_id, metric, bucket, count)
     select h.organisation_id, (h.hour at time zone o.time_zone)::date, h.channel_id, h.team_id, h.operator_id,
            h.metric, h.bucket, sum(h.count)
       from report_duration_hist h join organisations o on o.id = h.organisation_id ${only}
      group by 1, 2, 3, 4, 5, 6, 7`,
    params,
  );
}

/**
 * After a change of the organisation's time zone (in the same transaction): its daily rollups again, by the new
 * zone's days. Takes the cursor lock first, so no fold adds to the daily rows by the old zone meanwhile.
 */
export async function rezoneDailyRollups(q: Queryable, orgId: string): Promise<void> {
  await q.query(`select source from report_cursors for update`);
  await q.query(`delete from report_dialog_daily where organisation_id = $1`, [orgId]);
  await q.query(`delete from report_duration_daily where organisation_id = $1`, [orgId]);
  await buildDailyRollups(q, orgId);
}

/**
 * Drops every rollup and folds all history again (the rollups are derived data), set-based: a few INSERT ... SELECT
 * ... GROUP BY statements over the whole history, in one transaction holding the cursor lock, which then sets each
 * cursor to the last row it counted. The figures are the incremental fold's exactly (same keys, same rules: the
 * tests compare both); only the way there differs (minutes for ten million messages instead of hours).
 * Returns the passes it took: the set-based one, then each batch the periodic fold took for the rows of the lag.
 */
export async function rebuildRollups(db: Db, opts: { lagMs?: number } = {}): Promise<number> {
  const now = Date.now();
  await db.tx(async (q) => {
    const before = uuidV7Floor(Math.min(now - (opts.lagMs ?? DEFAULT_LAG_MS), await openWritersSince(db, q)));
    await q.query(`select source from report_cursors for update`);
    await q.query(`delete from report_dialog_hourly`);
    await q.query(`delete from report_duration_hist`);
    await q.query(`delete from report_presence_hourly`);
    await q.query(`delete from report_category_hourly`);
    await q.query(`delete from report_dialog_daily`);
    await q.query(`delete from report_duration_daily`);
    // Each close with its dialog's start, its category at the close, the team and operator it counts for.
    await q.query(
      `create temp table rr_close on commit drop as
       select h.id, h.organisation_id, h.chat_id, h.created_at, c.channel_id,
              coalesce(h.from_team_id, c.team_id) as team_id,
              coalesce(h.from_user_id, c.operator_id, '${NIL}') as operator_id, s.started_at, k.category_id
         from chat_history h
         join chats c on c.id = h.chat_id
         left join lateral (
           select p.created_at as started_at from chat_history p
            where p.chat_id = h.chat_id and p.kind in ('created', 'reopen') and p.created_at <= h.created_at
            order by p.created_at desc limit 1
         ) s on true
         left join lateral (
           select p.category_id from chat_history p
            where p.chat_id = h.chat_id and p.kind in ('category_set', 'category_removed')
              and p.created_at <= h.created_at
            order by p.created_at desc, p.id desc limit 1
         ) k on true
        where h.kind in ('close', 'auto_close', 'inactivity_close') and h.id < $1`,
      [before],
    );
    await q.query(`analyze rr_close`);
    // Missed: the client messages of a dialog closed with no operator reply since its start.
    await q.query(
      `create temp table rr_missed on commit drop as
       select x.id, count(*) filter (where m.direction = 'in' and not m.internal)::int as n_in,
              bool_or(${REPLY.replaceAll('p.', 'm.')}) as replied
         from rr_close x
         join messages m on m.chat_id = x.chat_id and m.created_at >= x.started_at and m.created_at <= x.created_at
        where x.started_at is not null
        group by x.id`,
    );
    // Operators' replies (the REPLY rule) with the start of the dialog they answer; the first of each start is its
    // first response.
    await q.query(
      `create temp table rr_first on commit drop as
       with starts as (
         select chat_id, created_at as started_at,
                lead(created_at) over (partition by chat_id order by created_at) as next_at
           from (select distinct chat_id, created_at from chat_history where kind in ('created', 'reopen')) d
       )
       select distinct on (s.chat_id, s.started_at) m.id, m.organisation_id, m.channel_id, m.author_id, m.created_at,
              s.started_at, c.team_id
         from messages m
         join starts s on s.chat_id = m.chat_id and m.created_at >= s.started_at
                      and (s.next_at is null or m.created_at < s.next_at)
         join chats c on c.id = m.chat_id
        where ${REPLY.replaceAll('p.', 'm.')}
        order by s.chat_id, s.started_at, m.created_at, m.id`,
    );
    await q.query(`delete from rr_first where id >= $1`, [before]);
    const zeros = (cols: Partial<Record<(typeof COLUMNS)[number], string>>) =>
      COLUMNS.map((c) => `${cols[c] ?? '0'} as ${c}`).join(', ');
    await q.query(
      `insert into report_dialog_hourly (organisation_id, hour, channel_id, team_id, operator_id, ${COUNTER_LIST})
       select organisation_id, hour, channel_id, team_id, operator_id,
              ${COLUMNS.map((c) => `sum(${c})`).join(', ')}
         from (
           select h.organisation_id, ${hourSql('h.created_at')} as hour, c.channel_id,
                  case when h.kind = 'transfer' then coalesce(h.from_team_id, c.team_id)
                       when h.kind = 'rated' then c.team_id else coalesce(h.to_team_id, c.team_id) end as team_id,
                  case when h.kind = 'transfer' then coalesce(h.from_user_id, '${NIL}')
                       when h.kind = 'rated' then coalesce(c.operator_id, '${NIL}') else '${NIL}' end as operator_id,
                  ${zeros({
                    dialogs_new: `(h.kind in ('created', 'reopen'))::int`,
                    dialogs_transferred: `(h.kind = 'transfer')::int`,
                    rating_1: `(h.kind = 'rated' and h.score = 1)::int`,
                    rating_2: `(h.kind = 'rated' and h.score = 2)::int`,
                    rating_3: `(h.kind = 'rated' and h.score = 3)::int`,
                    rating_4: `(h.kind = 'rated' and h.score = 4)::int`,
                    rating_5: `(h.kind = 'rated' and h.score = 5)::int`,
                  })}
             from chat_history h
             join chats c on c.id = h.chat_id
            where h.id < $1 and (h.kind in ('created', 'reopen', 'transfer')
                                 or (h.kind = 'rated' and h.score between 1 and 5))
           union all
           select x.organisation_id, ${hourSql('x.created_at')}, x.channel_id, x.team_id, x.operator_id,
                  ${zeros({
                    dialogs_closed: '1',
                    messages_missed: `case when r.replied then 0 else coalesce(r.n_in, 0) end`,
                    handling_count: '(x.started_at is not null)::int',
                    handling_sum_ms: `coalesce(greatest(0, ${epochMs('x.created_at')} - ${epochMs('x.started_at')}), 0)`,
                  })}
             from rr_close x left join rr_missed r on r.id = x.id
           union all
           select m.organisation_id, ${hourSql('m.created_at')}, m.channel_id, c.team_id,
                  case when m.direction = 'in' then coalesce(c.operator_id, '${NIL}') else m.author_id end,
                  ${zeros({
                    messages_in: `(m.direction = 'in')::int`,
                    messages_out: `(m.direction = 'out')::int`,
                  })}
             from messages m
             join chats c on c.id = m.chat_id
            where m.id < $1 and not m.internal and m.kind <> 'internal'
              and (m.direction = 'in' or m.author_id is not null)
           union all
           select f.organisation_id, ${hourSql('f.created_at')}, f.channel_id, f.team_id, f.author_id,
                  ${zeros({
                    first_response_count: '1',
                    first_response_sum_ms: `greatest(0, ${epochMs('f.created_at')} - ${epochMs('f.started_at')})`,
                  })}
             from rr_first f
         ) x
        group by organisation_id, hour, channel_id, team_id, operator_id`,
      [before],
    );
    await q.query(
      `insert into report_duration_hist (organisation_id, hour, channel_id, team_id, operator_id, metric, bucket, count)
       select organisation_id, hour, channel_id, team_id, operator_id, metric, ${bucketSql('d')}, count(*)
         from (
           select x.organisation_id, ${hourSql('x.created_at')} as hour, x.channel_id, x.team_id, x.operator_id,
                  'handling' as metric, greatest(0, ${epochMs('x.created_at')} - ${epochMs('x.started_at')}) as d
             from rr_close x where x.started_at is not null
           union all
           select f.organisation_id, ${hourSql('f.created_at')}, f.channel_id, f.team_id, f.author_id,
                  'first_response', greatest(0, ${epochMs('f.created_at')} - ${epochMs('f.started_at')})
             from rr_first f
         ) x
        group by 1, 2, 3, 4, 5, 6, 7`,
    );
    await q.query(
      `insert into report_category_hourly (organisation_id, hour, channel_id, category_id, requests)
       select organisation_id, ${hourSql('created_at')}, channel_id, coalesce(category_id, '${NIL}'), count(*)
         from rr_close group by 1, 2, 3, 4`,
    );
    // Presence: each change closes the interval of the state it leaves, cut at the UTC hours it covers.
    await q.query(
      `insert into report_presence_hourly (organisation_id, hour, user_id, online_ms, break_ms)
       select organisation_id, to_timestamp(hr / 1000.0), user_id,
              coalesce(sum(d) filter (where previous = 'online'), 0), coalesce(sum(d) filter (where previous = 'break'), 0)
         from (
           select p.organisation_id, p.user_id, p.previous, hr, least(e.t1, hr + 3600000) - greatest(e.t0, hr) as d
             from presence_history p
            cross join lateral (select ${epochMs('p.previous_at')} as t0, ${epochMs('p.created_at')} as t1) e
            cross join lateral generate_series(e.t0 - e.t0 % 3600000, e.t1 - 1, 3600000::bigint) hr
            where p.id < $1 and p.previous in ('online', 'break') and p.previous_at is not null and e.t1 > e.t0
         ) x
        group by organisation_id, hr, user_id`,
      [before],
    );
    await buildDailyRollups(q);
    for (const source of ['chat_history', 'messages', 'presence_history'])
      await q.query(
        `update report_cursors set last_id = coalesce((select id from ${source} where id < $1 order by id desc limit 1), $2),
                updated_at = now() where source = $3`,
        [before, NIL, source],
      );
  });
  // Rows between the bound and now (the lag) are the periodic fold's, as always.
  return 1 + (await catchUpRollups(db, opts));
}
