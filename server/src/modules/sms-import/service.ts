import { randomUUID } from 'node:crypto';
import {
  FIELD_MESSAGES as M,
  SMS_IMPORT_LIMITS,
  type SmsImportDto,
  type SmsImportMapping,
  smsImportCreateFieldsSchema,
  smsImportMappingSchema,
} from '@smartconnect/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { schedulePoll } from '../../jobs/polls.ts';
import { readTable, TableReadError } from '../../lib/table-read.ts';
import { getChannel } from '../channels/service.ts';
import { completeMapping, headerSignature, recognise } from './formats.ts';
import * as Q from './queries.ts';

/** Where an import's uploaded bytes are kept while it may run. */
export const fileKeyOf = (id: string) => `sms-import-${id}`;

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);

export const presentImport = (r: Q.ImportRow): SmsImportDto => ({
  id: r.id,
  channel: { id: r.channel_id, name: r.channel_name, service: r.service },
  author: r.author_id ? { id: r.author_id, name: r.author_name ?? '' } : null,
  fileName: r.file_name,
  format: r.format,
  encoding: r.encoding,
  detected: r.detected,
  status: r.status,
  columns: r.columns,
  sample: r.sample,
  mapping: r.mapping,
  suggested: r.mapping ?? suggestedOf(r.columns),
  totalRows: r.total_rows,
  processedRows: r.processed_rows,
  imported: r.imported,
  duplicates: r.duplicates,
  refused: r.refused,
  refusals: r.refusals,
  error: r.error,
  createdAt: r.created_at.toISOString(),
  finishedAt: r.finished_at?.toISOString() ?? null,
});

const suggestedOf = (columns: string[]) => {
  const g = recognise(columns).mapping;
  return {
    phone: g.phone ?? null,
    text: g.text ?? null,
    sentAt: g.sentAt ?? null,
    status: g.status ?? null,
    messageId: g.messageId ?? null,
  };
};

export async function getImport(app: AppContext, auth: AuthContext, id: string) {
  const row = await Q.findImport(app.db, auth.organisationId, id);
  if (!row) throw new AppError('notFoundException');
  return presentImport(row);
}

export async function listImports(app: AppContext, auth: AuthContext, channelId: string | undefined) {
  return (await Q.listImports(app.db, auth.organisationId, channelId ?? null)).map(presentImport);
}

/** The multipart form: its text fields and its one file (at most the limit; a larger one is refused whole). */
async function readForm(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('validationException', { file: M.requiredFields });
  const fields: Record<string, string> = {};
  let file: { name: string; data: Buffer } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: SMS_IMPORT_LIMITS.fileMaxBytes, files: 1 } })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        file = { name: part.filename || 'file', data };
      } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(
        'payloadTooLargeException',
        { file: M.valueIncorrect },
        { maxBytes: SMS_IMPORT_LIMITS.fileMaxBytes },
      );
    if (err instanceof AppError) throw err;
    throw new AppError('validationException', { file: M.incorrectValue });
  }
  if (!file?.data.length) throw new AppError('validationException', { file: M.requiredFields });
  return { fields, file };
}

/** A mapping given as the form's JSON field; its columns must exist in the file. */
function givenMapping(raw: string | undefined, columns: number): SmsImportMapping | null {
  if (raw === undefined || raw.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError('validationException', { mapping: M.valueIncorrect });
  }
  const res = smsImportMappingSchema.safeParse(json);
  if (!res.success || !completeMapping(res.data, columns))
    throw new AppError('validationException', { mapping: M.valueIncorrect });
  return res.data;
}

/**
 * An uploaded export: read whole (a file that is not a table, or cannot be read to its end, is refused before
 * anything is kept), its columns known by the mapping given, the organisation's earlier choice for this header, or
 * a recognised export format; otherwise it waits for them (status 'mapping', with a guess). A running import is
 * picked up by its channel's import session (jobs/polls.ts kind 'import').
 */
export async function createImport(app: AppContext, auth: AuthContext, req: FastifyRequest) {
  const { fields, file } = await readForm(req);
  const parsed = smsImportCreateFieldsSchema.safeParse(fields);
  if (!parsed.success) throw new AppError('validationException', { channelId: M.requiredFields });
  // Not found is the field's error; a database failure is not.
  const channel = await getChannel(app, auth.organisationId, parsed.data.channelId).catch((err) => {
    if (err instanceof AppError) return null;
    throw err;
  });
  if (channel?.type !== 'sms') throw new AppError('validationException', { channelId: M.valueIncorrect });
  let table: ReturnType<typeof readTable>;
  try {
    table = readTable(file.data, { maxRows: SMS_IMPORT_LIMITS.rowsMax });
  } catch (err) {
    if (err instanceof TableReadError)
      throw new AppError(
        'fileUploadException',
        { file: M.incorrectValue },
        { reason: err.code, detail: err.message },
      );
    throw err;
  }
  const header = table.rows[0]?.cells.map((c) => cut(c.trim(), 100)) ?? [];
  if (table.rows.length < 2)
    throw new AppError('fileUploadException', { file: M.incorrectValue }, { reason: 'no_rows' });
  const signature = headerSignature(header);
  const given = givenMapping(fields.mapping, header.length);
  const remembered = given ? null : await Q.rememberedMapping(app.db, auth.organisationId, signature);
  const known = recognise(header);
  const recognised = known.detected ? completeMapping(known.mapping, header.length) : null;
  const usable = (m: SmsImportMapping | null) => (m && completeMapping(m, header.length) ? m : null);
  const [mapping, detected] = given
    ? [given, 'given' as const]
    : usable(remembered)
      ? [remembered, 'remembered' as const]
      : recognised
        ? [recognised, known.detected]
        : [null, null];
  const id = randomUUID();
  const key = fileKeyOf(id);
  await app.storage.put(key, file.data);
  const now = app.clock.now();
  await app.db.tx(async (q) => {
    await Q.insertImport(q, {
      id,
      organisation_id: auth.organisationId,
      channel_id: channel.id,
      author_id: auth.userId,
      file_name: cut(file.name, 255),
      file_key: key,
      format: table.format,
      encoding: table.encoding,
      detected,
      status: mapping ? 'running' : 'mapping',
      columns: header,
      sample: table.rows
        .slice(1, 1 + SMS_IMPORT_LIMITS.sampleRows)
        .map((r) => r.cells.map((c) => cut(c, 200))),
      signature,
      mapping,
      total_rows: table.rows.length - 1,
    });
    if (!mapping) return;
    if (detected === 'given') await Q.rememberMapping(q, auth.organisationId, signature, mapping, now);
    await schedulePoll(q, auth.organisationId, channel.id, now, 'import');
  });
  return getImport(app, auth, id);
}

/** The columns chosen for an import that waits for them: remembered for this header, and the import starts. */
export async function startImport(app: AppContext, auth: AuthContext, id: string, mapping: SmsImportMapping) {
  const row = await Q.findImport(app.db, auth.organisationId, id);
  if (!row) throw new AppError('notFoundException');
  if (row.status !== 'mapping') throw new AppError('mailingStateException');
  if (!completeMapping(mapping, row.columns.length))
    throw new AppError('validationException', { mapping: M.valueIncorrect });
  const now = app.clock.now();
  await app.db.tx(async (q) => {
    if (!(await Q.startImport(q, id, mapping, now))) throw new AppError('mailingStateException');
    await Q.rememberMapping(q, auth.organisationId, row.signature, mapping, now);
    await schedulePoll(q, auth.organisationId, row.channel_id, now, 'import');
  });
  return getImport(app, auth, id);
}

/** Imports left waiting for their columns for a day are given up, their files removed (a periodic task). */
export async function dropStaleWaiting(app: AppContext) {
  const now = app.clock.now();
  const dropped = await Q.staleWaiting(app.db, new Date(now.getTime() - 24 * 3_600_000), now);
  for (const d of dropped) if (d.file_key) await app.storage.remove(d.file_key).catch(() => undefined);
}
