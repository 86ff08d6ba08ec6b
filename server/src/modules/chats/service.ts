import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { assertVisible, viewerOf } from '../conversation/policy.ts';
import { findChat } from '../conversation/readers.ts';
import * as Q from './queries.ts';

/** A chat the caller may see (404 otherwise, also for other organisations). */
export async function getChat(app: AppContext, auth: AuthContext, id: string) {
  const viewer = await viewerOf(app.db, auth);
  const chat = await findChat(app.db, auth.organisationId, id);
  assertVisible(viewer, chat);
  return chat;
}

/** In progress and Waiting counts, as the caller's lists would show them. */
export async function countChats(app: AppContext, auth: AuthContext) {
  const viewer = await viewerOf(app.db, auth);
  const row = await Q.countChats(app.db, auth.organisationId, viewer);
  return { inProgress: row.in_progress, waiting: row.waiting };
}

export async function listMessages(
  app: AppContext,
  auth: AuthContext,
  chatId: string,
  limit: number,
  before: string | null,
) {
  const chat = await getChat(app, auth, chatId);
  const page = await Q.listMessages(app.db, chat.id, limit, before);
  if (!page) throw new AppError('messageNotFoundException');
  return page;
}

export async function listHistory(app: AppContext, auth: AuthContext, chatId: string) {
  const chat = await getChat(app, auth, chatId);
  return Q.listHistory(app.db, chat.id);
}
