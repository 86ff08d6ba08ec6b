import { closeChatRow, type Tx } from './lifecycle.ts';
import * as Q from './queries.ts';

/**
 * Closes every open chat of a client in the caller's transaction (blacklisting: a blocked client's dialogs end and
 * their operators get the room back). Chats are locked in id order, the ingest statement's order, before the caller
 * touches the client's row. No category is asked for: the dialog ends because of the client, not with a request.
 * Answers how many chats were closed.
 */
export async function closeOpenChatsOfClient(
  tx: Tx,
  orgId: string,
  clientId: string,
  actorId: string | null,
): Promise<number> {
  const open = await tx.q.query<{ id: string }>(
    `select id from chats where organisation_id = $1 and client_id = $2 and status <> 'closed'
      order by id for no key update`,
    [orgId, clientId],
  );
  let closed = 0;
  for (const { id } of open) {
    const chat = await Q.lockChat(tx.q, orgId, id);
    if (!chat || chat.status === 'closed') continue;
    await closeChatRow(tx, chat, { kind: 'close', actorId });
    closed++;
  }
  return closed;
}

/** Whether the chat's client is blacklisted (the pipeline's blacklist stage). */
export const chatClientBlocked = async (tx: Tx, chatId: string) =>
  (
    await tx.q.query<{ blocked: boolean }>(
      `select cl.blocked_at is not null as blocked from chats c join clients cl on cl.id = c.client_id
        where c.id = $1`,
      [chatId],
    )
  )[0]?.blocked ?? false;

/**
 * Closes one open chat at the client's own word (an opt-out reply answered automatically): no category is asked and
 * no close step runs (no rating request), as when a blacklisted client's dialogs end. Answers whether it closed it.
 */
export async function closeChatAtClientsWord(tx: Tx, orgId: string, chatId: string): Promise<boolean> {
  const chat = await Q.lockChat(tx.q, orgId, chatId);
  if (!chat || chat.status === 'closed') return false;
  await closeChatRow(tx, chat, { kind: 'close', actorId: null });
  return true;
}
