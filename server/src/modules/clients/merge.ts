import type { MergePreviewDto, MergeSuggestionDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { emitClientMerged } from './events.ts';
import * as M from './merge-queries.ts';
import * as P from './profile-queries.ts';
import { getClient, getProfile } from './service.ts';

type MergeInput = { targetId: string; sourceIds: string[] };

/** What a merge would move (each client checked as the caller may see it). */
export async function previewMerge(
  app: AppContext,
  auth: AuthContext,
  b: MergeInput,
): Promise<MergePreviewDto> {
  const target = await getClient(app, auth, b.targetId);
  const sources = [];
  for (const id of b.sourceIds) sources.push(await getClient(app, auth, id));
  const counts = await M.mergeCounts(app.db, b.sourceIds);
  if (!counts) throw new AppError('profileNotFoundException');
  return {
    target: { id: target.id, name: target.name },
    sources: sources.map((s) => ({ id: s.id, name: s.name })),
    ...counts,
  };
}

const LOCK_CYCLE = new Set(['40P01', '40001']);

/**
 * Merges clients into one, irreversibly, in ONE transaction: the sources' channel contacts and chats (with their
 * messages), phones and e-mails, comments, tags, fields, companies and history go to the target, and the sources are
 * deleted (404 afterwards). Open chats are locked first, then the clients (in id order; the ingest statement's
 * order), so an inbound message racing the merge lands either before it (and is moved) or after it (on the target:
 * ingest runs its statement again when the client it read was merged away). History 'merged' on the target records
 * who merged what.
 */
export async function mergeClients(app: AppContext, auth: AuthContext, b: MergeInput) {
  await previewMerge(app, auth, b);
  const ids = [b.targetId, ...b.sourceIds];
  for (let attempt = 1; ; attempt++) {
    try {
      await withEvents(app, async (q, emit) => {
        await M.lockOpenChats(q, ids);
        const locked = await M.lockClients(q, auth.organisationId, ids);
        if (locked.length !== ids.length) throw new AppError('profileNotFoundException');
        const counts = await M.mergeCounts(q, b.sourceIds);
        await M.moveAll(q, b.targetId, b.sourceIds);
        await P.insertHistory(q, auth.organisationId, b.targetId, 'merged', auth.userId, {
          sources: locked.filter((c) => c.id !== b.targetId).map((c) => ({ id: c.id, name: c.name })),
          ...counts,
        });
        await emitClientMerged({ q, emit }, auth.organisationId, b.targetId, b.sourceIds);
      });
      break;
    } catch (err) {
      if (!LOCK_CYCLE.has((err as { code?: string }).code ?? '') || attempt >= 5) throw err;
    }
  }
  return getProfile(app, auth, b.targetId);
}

/** Groups of clients that look like one person (merge-contacts page): same phone, e-mail or name. */
export async function mergeSuggestions(app: AppContext, auth: AuthContext): Promise<MergeSuggestionDto[]> {
  if (!auth.rights.has('AUTHORITY_ALL_CHATS')) return [];
  return M.suggestions(app.db, auth.organisationId, 50);
}
