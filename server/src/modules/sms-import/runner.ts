import { SMS_IMPORT_LIMITS, type SmsImportRefusal } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Poller, PollRun } from '../../jobs/polls.ts';
import { readTable, TableReadError, type TableRow } from '../../lib/table-read.ts';
import { withEvents } from '../../realtime/emit.ts';
import { readRow, type SmsItem } from './formats.ts';
import * as Q from './queries.ts';
import { storeSms } from './store.ts';

export const RUNNER = {
  /** Rows written per transaction. */
  chunkRows: 2_000,
  /** An idle channel's import session is due again this late; a started import makes it due at once. */
  idleMs: 60 * 60_000,
} as const;

/** Marker of a chunk another runner counted first (its transaction is rolled back). */
class ChunkTaken extends Error {}

/**
 * Stores one chunk of rows and counts it, in one transaction: the contacts found or made by phone, the SMS written
 * (those already stored skipped), the import's figures moved on. Exactly once: the count is taken only while the
 * import is still at `from`.
 */
async function importChunk(app: AppContext, imp: Q.RunningImport, rows: TableRow[], from: number) {
  const now = app.clock.now();
  const items: SmsItem[] = [];
  const refusals: { line: number; reason: SmsImportRefusal }[] = [];
  const ctx = { service: imp.service, timeZone: imp.time_zone, now };
  if (!imp.mapping) throw new Error('running import without columns');
  for (const r of rows) {
    const read = readRow(r.cells, imp.mapping, ctx);
    if ('refused' in read) refusals.push({ line: r.line, reason: read.refused });
    else {
      items.push(read);
    }
  }
  await withEvents(app, async (q, emit) => {
    const target = { orgId: imp.organisation_id, channelId: imp.channel_id, teamId: imp.team_id };
    const imported = await storeSms({ q, emit }, target, items, now);
    const counted = await Q.recordChunk(q, {
      id: imp.id,
      from,
      to: from + rows.length,
      imported,
      duplicates: items.length - imported,
      refusals,
      listedMax: SMS_IMPORT_LIMITS.refusalsListed,
      now,
    });
    if (!counted) throw new ChunkTaken();
  });
}

/** Runs one import from where it stopped to its end (or until the session must end); answers whether it ended. */
async function runImport(app: AppContext, imp: Q.RunningImport, signal: AbortSignal): Promise<boolean> {
  const fail = async (error: string) => {
    await Q.finishImport(app.db, imp.id, 'failed', error, app.clock.now());
    if (imp.file_key) await app.storage.remove(imp.file_key).catch(() => undefined);
    return true;
  };
  const data = imp.file_key ? await app.storage.get(imp.file_key) : null;
  if (!data) return fail('file_missing');
  let rows: TableRow[];
  try {
    rows = readTable(data, { maxRows: SMS_IMPORT_LIMITS.rowsMax }).rows.slice(1);
  } catch (err) {
    if (err instanceof TableReadError) return fail(err.code);
    throw err;
  }
  let at = imp.processed_rows;
  while (at < rows.length) {
    if (signal.aborted) return false;
    const chunk = rows.slice(at, at + RUNNER.chunkRows);
    try {
      await importChunk(app, imp, chunk, at);
    } catch (err) {
      // Another runner counted it (this one's lease was lost): it goes on from there.
      if (err instanceof ChunkTaken) return false;
      throw err;
    }
    at += chunk.length;
  }
  await Q.finishImport(app.db, imp.id, 'done', null, app.clock.now());
  if (imp.file_key) await app.storage.remove(imp.file_key).catch(() => undefined);
  app.log.info({ import: imp.id, rows: rows.length }, 'sms import done');
  return true;
}

/**
 * The import session of an `sms` channel (jobs/polls.ts kind 'import', under the channel's lease): one instance at
 * a time imports a channel's files, oldest first, chunk by chunk. A restart goes on from the last chunk counted.
 */
export const importRunner: Poller = async (app: AppContext, run: PollRun) => {
  while (!run.signal.aborted) {
    const imp = await Q.nextRunning(app.db, run.channelId);
    if (!imp) return { againInMs: RUNNER.idleMs };
    if (!(await runImport(app, imp, run.signal))) return { againInMs: 0 };
  }
  return { againInMs: 0 };
};
