import type { ChatDto, ChatTypingPayload, MessageDto } from '@smartconnect/contracts';
import type { QueryClient } from '@tanstack/react-query';
import type { RealtimeEvent } from '../../shared/realtime/client.ts';
import type { ChatList } from './api.ts';
import { upsertMessageInPages } from './conversation/use-messages.ts';
import { chatKeys } from './keys.ts';
import { clearTyping, noteTyping } from './typing.ts';

const CHAT_EVENTS = new Set([
  'chat.created',
  'chat.updated',
  'chat.assigned',
  'chat.transferred',
  'chat.closed',
]);

function patchLists(client: QueryClient, chatId: string, fn: (c: ChatDto) => ChatDto) {
  client.setQueriesData<ChatList>({ queryKey: chatKeys.all }, (list) =>
    list && Array.isArray(list.items)
      ? { ...list, items: list.items.map((c) => (c.id === chatId ? fn(c) : c)) }
      : list,
  );
}

/**
 * The lists' refetches, at most one per THROTTLE ms: at 20 client messages a second every event would otherwise
 * restart the lists' requests (a refetch cancels the one in flight) and draw them again. The rows are patched at
 * once from the event; the server's order and counts follow within the throttle.
 */
const THROTTLE = 400;
const due = new Map<QueryClient, { lists: boolean; chats: boolean; counters: boolean }>();
function refetchSoon(client: QueryClient, what: 'lists' | 'chats' | 'counters'): void {
  const pending = due.get(client);
  if (pending) {
    pending[what] = true;
    return;
  }
  due.set(client, { lists: what === 'lists', chats: what === 'chats', counters: what === 'counters' });
  setTimeout(() => {
    const p = due.get(client);
    due.delete(client);
    if (!p) return;
    if (p.chats)
      void client.invalidateQueries({
        queryKey: chatKeys.all,
        predicate: (q) => q.queryKey[1] !== 'counters',
      });
    else if (p.lists) void client.invalidateQueries({ queryKey: chatKeys.pagesAll });
    if (p.counters) void client.invalidateQueries({ queryKey: chatKeys.counters });
  }, THROTTLE);
}

/** A message into the open conversation's pages (conversation/use-messages.ts). */
const upsertMessage = (client: QueryClient, m: MessageDto) => upsertMessageInPages(client, m);

/**
 * Applies one realtime event of the chat domain to the query cache: the open chat and its messages change
 * in place; lists refetch in the background (which list a chat belongs to depends on rights and teams the
 * server knows best), after a patch so the row changes at once.
 */
export function applyChatEvent(client: QueryClient, event: RealtimeEvent): boolean {
  if (CHAT_EVENTS.has(event.type)) {
    const chat = event.payload as ChatDto;
    client.setQueryData(chatKeys.chat(chat.id), chat);
    patchLists(client, chat.id, () => chat);
    refetchSoon(client, 'chats');
    return true;
  }
  if (
    event.type === 'message.created' ||
    event.type === 'message.updated' ||
    event.type === 'message.status'
  ) {
    const m = event.payload as MessageDto;
    upsertMessage(client, m);
    if (event.type === 'message.created' && m.direction === 'in') clearTyping(m.chatId);
    if (event.type === 'message.created' && !m.internal)
      patchLists(client, m.chatId, (c) => ({ ...c, lastMessage: { text: m.text, at: m.createdAt } }));
    // A client message moves its chat up and counts as unread: the cursor lists refetch (server order and counts).
    if (event.type === 'message.created' && m.direction === 'in') refetchSoon(client, 'lists');
    return true;
  }
  if (event.type === 'chat.typing') {
    noteTyping(event.payload as ChatTypingPayload);
    return true;
  }
  if (event.type === 'counters.changed') {
    refetchSoon(client, 'counters');
    return true;
  }
  return false;
}

/** What a `resync` refetches: everything of the chat center. */
export function resyncChats(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: chatKeys.all });
  void client.invalidateQueries({ queryKey: chatKeys.chatAll });
}
