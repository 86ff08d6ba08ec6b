import type {
  SmsImportMapping,
  SmsImportRefusal,
  SmsImportStatus,
  SmsService,
} from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';

export type ImportRow = {
  id: string;
  organisation_id: string;
  channel_id: string;
  channel_name: string;
  service: SmsService;
  author_id: string | null;
  author_name: string | null;
  file_name: string;
  file_key: string | null;
  format: 'csv' | 'xlsx';
  encoding: string | null;
  detected: 'smsru' | 'smsc' | 'remembered' | 'given' | 'chosen' | null;
  status: SmsImportStatus;
  columns: string[];
  sample: string[][];
  signature: string;
  mapping: SmsImportMapping | null;
  total_rows: number;
  processed_rows: number;
  imported: number;
  duplicates: number;
  refused: number;
  refusals: { line: number; reason: SmsImportRefusal }[];
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
};

const SELECT = `
  select i.*, ch.name as channel_name, coalesce(ch.settings->>'service', 'other') as service,
         u.name as author_name
    from sms_imports i join channels ch on ch.id = i.channel_id left join users u on u.id = i.author_id`;

export const findImport = (q: Queryable, orgId: string, id: string) =>
  maybe<ImportRow>(q, `${SELECT} where i.id = $1 and i.organisation_id = $2`, [id, orgId]);

export const listImports = (q: Queryable, orgId: string, channelId: string | null) =>
  q.query<ImportRow>(
    `${SELECT} where i.organisation_id = $1 and ($2::uuid is null or i.channel_id = $2)
      order by i.created_at desc limit 100`,
    [orgId, channelId],
  );

export type NewImport = Pick<
  ImportRow,
  | 'organisation_id'
  | 'channel_id'
  | 'author_id'
  | 'file_name'
  | 'file_key'
  | 'format'
  | 'encoding'
  | 'detected'
  | 'status'
  | 'columns'
  | 'sample'
  | 'signature'
  | 'mapping'
  | 'total_rows'
> & { id: string };

export const insertImport = (q: Queryable, r: NewImport) =>
  q.query(
    `insert into sms_imports (id, organisation_id, channel_id, author_id, file_name, file_key, format, encoding,
                              detected, status, columns, sample, signature, mapping, total_rows)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      r.id,
      r.organisation_id,
      r.channel_id,
      r.author_id,
      r.file_name,
      r.file_key,
      r.format,
      r.encoding,
      r.detected,
      r.status,
      JSON.stringify(r.columns),
      JSON.stringify(r.sample),
      r.signature,
      r.mapping ? JSON.stringify(r.mapping) : null,
      r.total_rows,
    ],
  );

/** The import waiting for its columns gets them and starts; false when it no longer waits. */
export const startImport = async (q: Queryable, id: string, mapping: SmsImportMapping, now: Date) =>
  (
    await q.query(
      `update sms_imports set mapping = $2, status = 'running', detected = 'chosen', updated_at = $3
        where id = $1 and status = 'mapping' returning id`,
      [id, JSON.stringify(mapping), now],
    )
  ).length === 1;

export const rememberedMapping = async (q: Queryable, orgId: string, signature: string) =>
  (
    await q.query<{ mapping: SmsImportMapping }>(
      'select mapping from sms_import_mappings where organisation_id = $1 and signature = $2',
      [orgId, signature],
    )
  )[0]?.mapping ?? null;

export const rememberMapping = (
  q: Queryable,
  orgId: string,
  signature: string,
  mapping: SmsImportMapping,
  now: Date,
) =>
  q.query(
    `insert into sms_import_mappings (organisation_id, signature, mapping, updated_at) values ($1, $2, $3, $4)
     on conflict (organisation_id, signature) do update set mapping = excluded.mapping, updated_at = excluded.updated_at`,
    [orgId, signature, JSON.stringify(mapping), now],
  );

/** What the runner needs of a channel's oldest running import: it, its channel's team and the organisation's zone. */
export type RunningImport = ImportRow & { team_id: string; time_zone: string };

export const nextRunning = (q: Queryable, channelId: string) =>
  maybe<RunningImport>(
    q,
    `${SELECT.replace('u.name as author_name', 'u.name as author_name, ch.team_id, o.time_zone')}
       join organisations o on o.id = i.organisation_id
      where i.channel_id = $1 and i.status = 'running' order by i.created_at limit 1`,
    [channelId],
  );

/**
 * A chunk's outcome, counted only when the import is still running and still at `from` (a second runner after a
 * lost lease, or a chunk already counted, changes nothing: the caller's transaction is rolled back). Refusals past
 * the listed maximum are counted, not listed.
 */
export const recordChunk = async (
  q: Queryable,
  c: {
    id: string;
    from: number;
    to: number;
    imported: number;
    duplicates: number;
    refusals: { line: number; reason: SmsImportRefusal }[];
    listedMax: number;
    now: Date;
  },
) =>
  (
    await q.query(
      `update sms_imports
          set processed_rows = $3, imported = imported + $4, duplicates = duplicates + $5,
              refused = refused + $6,
              refusals = case when jsonb_array_length(refusals) >= $8 then refusals
                              else refusals || coalesce((select jsonb_agg(e) from (
                                     select e from jsonb_array_elements($7::jsonb) e
                                      limit greatest(0, $8 - jsonb_array_length(refusals))) x), '[]'::jsonb) end,
              updated_at = $9
        where id = $1 and status = 'running' and processed_rows = $2 returning id`,
      [
        c.id,
        c.from,
        c.to,
        c.imported,
        c.duplicates,
        c.refusals.length,
        JSON.stringify(c.refusals),
        c.listedMax,
        c.now,
      ],
    )
  ).length === 1;

/** The import ends: done, or failed with why (what was imported stays; its figures say how far it got). */
export const finishImport = (
  q: Queryable,
  id: string,
  status: 'done' | 'failed',
  error: string | null,
  now: Date,
) =>
  q.query(
    `update sms_imports set status = $2, error = $3, finished_at = $4, updated_at = $4, file_key = null
      where id = $1 and status = 'running'`,
    [id, status, error, now],
  );

/** An import left waiting for its columns is given up after a day: its file is removed. */
export const staleWaiting = (q: Queryable, before: Date, now: Date) =>
  q.query<{ id: string; file_key: string | null }>(
    `with s as (
       select id, file_key from sms_imports where status = 'mapping' and created_at < $1 limit 100 for update
     )
     update sms_imports i set status = 'failed', error = 'columns_not_chosen', file_key = null, finished_at = $2,
            updated_at = $2
       from s where i.id = s.id
     returning s.id, s.file_key`,
    [before, now],
  );

/** The organisation's time zone (naive times of a file are its local time). */
export const orgTimeZone = async (q: Queryable, orgId: string) =>
  (await q.query<{ time_zone: string }>('select time_zone from organisations where id = $1', [orgId]))[0]
    ?.time_zone ?? 'UTC';
