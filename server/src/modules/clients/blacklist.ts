import type { AppContext } from '../../context.ts';
import { statement } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import type { StageRun, StageTx } from '../../jobs/pipeline.ts';
import type { PipelineJob } from '../../jobs/pipeline-queries.ts';
import { withEvents } from '../../realtime/emit.ts';
import { chatClientBlocked, closeOpenChatsOfClient } from '../conversation/close-client-chats.ts';
import { emitClientEvents } from './events.ts';
import * as P from './profile-queries.ts';
import { getClient, getProfile, loadProfile } from './service.ts';

/**
 * Blacklists a client: their open dialogs close (the operators get the room back) and, from the commit on, what they
 * send is stored on their profile (the ingest statement appends it to their last dialog, closed) but opens no dialog
 * and reaches no operator, on every channel. History 'blocked' records who did it.
 */
export async function blockClient(app: AppContext, auth: AuthContext, clientId: string) {
  const base = await getClient(app, auth, clientId);
  await withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    // Chats first, then the client: the ingest statement's lock order.
    await closeOpenChatsOfClient(tx, auth.organisationId, clientId, auth.userId);
    const row = await P.lockClient(q, auth.organisationId, clientId);
    if (!row) throw new AppError('profileNotFoundException');
    if (row.blocked_at) return;
    await q.query('update clients set blocked_at = $2, blocked_by = $3, updated_at = $2 where id = $1', [
      clientId,
      tx.now,
      auth.userId,
    ]);
    await P.insertHistory(q, auth.organisationId, clientId, 'blocked', auth.userId, {});
    await emitClientEvents(tx, auth.organisationId, 'client.updated', [clientId]);
  });
  return loadProfile(app, auth, base);
}

/** Takes a client off the blacklist: their next message opens a dialog as usual. */
export async function unblockClient(app: AppContext, auth: AuthContext, clientId: string) {
  await getClient(app, auth, clientId);
  await withEvents(app, async (q, emit) => {
    const row = await P.lockClient(q, auth.organisationId, clientId);
    if (!row) throw new AppError('profileNotFoundException');
    if (!row.blocked_at) return;
    await q.query(
      'update clients set blocked_at = null, blocked_by = null, updated_at = now() where id = $1',
      [clientId],
    );
    await P.insertHistory(q, auth.organisationId, clientId, 'unblocked', auth.userId, {});
    await emitClientEvents({ q, emit }, auth.organisationId, 'client.updated', [clientId]);
  });
  return getProfile(app, auth, clientId);
}

/**
 * The chats of the run whose client is blacklisted, read once per run (ONE statement, not one per job); a chat
 * found here is checked again on its own before anything is done to it.
 */
const BLOCKED_CHATS = statement(
  'blocked_chats',
  `select c.id from chats c join clients cl on cl.id = c.client_id
    where c.id = any($1::uuid[]) and cl.blocked_at is not null`,
);
async function blockedInRun(tx: StageTx, run: StageRun): Promise<Set<string>> {
  let blocked = run.memo.get('blacklist') as Set<string> | undefined;
  if (!blocked) {
    const chatIds = [...new Set(run.jobs.map((j) => j.chat_id))];
    const rows = await tx.q.query<{ id: string }>(BLOCKED_CHATS, [chatIds]);
    blocked = new Set(rows.map((r) => r.id));
    run.memo.set('blacklist', blocked);
  }
  return blocked;
}

/**
 * The pipeline's first stage: a message of a blacklisted client goes no further (a client blocked after the
 * ingest enqueued the job). A dialog it opened, still waiting for an operator, is closed.
 */
export async function blacklistStage(tx: StageTx, job: PipelineJob, run: StageRun) {
  if (!(await blockedInRun(tx, run)).has(job.chat_id)) return 'continue' as const;
  // Read again for this job (the run's read may be older than a block or unblock of this transaction).
  if (!(await chatClientBlocked(tx, job.chat_id))) return 'continue' as const;
  if (job.opened) {
    const chat = await tx.q.query<{ client_id: string }>(
      "select client_id from chats where id = $1 and status = 'waiting' and operator_id is null",
      [job.chat_id],
    );
    if (chat[0]) await closeOpenChatsOfClient(tx, job.organisation_id, chat[0].client_id, null);
  }
  return 'stop' as const;
}
