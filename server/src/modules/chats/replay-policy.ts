import type { AppContext } from '../../context.ts';
import type { StoredEvent } from '../../realtime/bus.ts';
import type { Reader } from '../../realtime/replay-policies.ts';
import { canSee } from '../conversation/policy.ts';
import { chatScopes } from './queries.ts';

/** The chat an event is about: chat events carry the chat, message events its chatId. */
function chatOf(e: StoredEvent): string | null {
  const p = e.payload as { id?: unknown; chatId?: unknown } | null;
  if (e.type.startsWith('chat.')) return typeof p?.id === 'string' ? p.id : null;
  if (e.type.startsWith('message.')) return typeof p?.chatId === 'string' ? p.chatId : null;
  return null;
}

/**
 * Replay after a reconnect (realtime gateway): events about chats the reader cannot open through REST any more
 * (canSee on the chat as it is now: transferred away, taken by a colleague, the reader left its team).
 */
export async function chatReplayPolicy(app: AppContext, reader: Reader, events: StoredEvent[]) {
  const withheld = new Set<string>();
  const chatIds = [...new Set(events.map(chatOf).filter((id): id is string => !!id))];
  if (!chatIds.length) return withheld;
  const scopes = new Map(
    (await chatScopes(app.db, reader.organisationId, chatIds)).map((c) => [c.id, c] as const),
  );
  const viewer = {
    userId: reader.userId,
    all: reader.rights.has('AUTHORITY_ALL_CHATS'),
    teamIds: [...reader.teams],
  };
  for (const e of events) {
    const chatId = chatOf(e);
    if (!chatId) continue;
    const scope = scopes.get(chatId);
    if (!scope || !canSee(viewer, scope)) withheld.add(e.id);
  }
  return withheld;
}
