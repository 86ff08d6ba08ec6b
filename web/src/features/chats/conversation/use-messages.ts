import type { MessageDto, MessagePage } from '@smartconnect/contracts';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
} from '@tanstack/react-query';
import { get } from '../../../shared/api/client.ts';
import { chatKeys } from '../keys.ts';

/** Messages per page: the newest page first, older pages as the operator scrolls up. */
export const MESSAGE_PAGE = 50;

/** The cached pages of a conversation: pages[0] is the newest, each page oldest first. */
export type MessagePages = InfiniteData<MessagePage, string | null>;

/**
 * A conversation's pages. Realtime keeps cached pages current (cache.ts) and a reconnect refetches them (resync), so a
 * chat opened again within the minute shows at once without asking; a hovered or focused row prefetches its newest page.
 */
export const messagesQuery = (chatId: string) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(chatId),
    queryFn: ({ pageParam, signal }) =>
      get<MessagePage>(
        `/api/chats/${chatId}/messages?limit=${MESSAGE_PAGE}${pageParam ? `&before=${pageParam}` : ''}`,
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last: MessagePage) => last.nextCursor,
    meta: { silent: true },
    retry: false,
    staleTime: 60_000,
  });

export function useMessagePages(chatId: string) {
  return useInfiniteQuery(messagesQuery(chatId));
}

/** Starts loading a chat's newest page before it is opened (hover, focus): the switch then only draws. */
export function prefetchMessages(client: QueryClient, chatId: string): void {
  void client.prefetchInfiniteQuery(messagesQuery(chatId));
}

/** Every loaded message, oldest first. */
export const loadedMessages = (data: InfiniteData<MessagePage, unknown> | undefined): MessageDto[] =>
  data?.pages ? data.pages.toReversed().flatMap((p) => p.items) : [];

/** A message into its conversation's pages: replaced in place when known, else placed in the newest page by time. */
export function upsertMessageInPages(
  client: QueryClient,
  m: MessageDto,
  opts: { keep?: boolean } = {},
): void {
  client.setQueryData<MessagePages>(chatKeys.messages(m.chatId), (data) => {
    if (!data?.pages?.length) return data;
    for (let p = 0; p < data.pages.length; p++) {
      const i = data.pages[p].items.findIndex((x) => x.id === m.id);
      if (i === -1) continue;
      if (opts.keep) return data;
      const pages = data.pages.slice();
      const items = pages[p].items.slice();
      items[i] = m;
      pages[p] = { ...pages[p], items };
      return { ...data, pages };
    }
    const newest = data.pages[0];
    const items = newest.items.slice();
    let at = items.length;
    while (at > 0 && items[at - 1].createdAt > m.createdAt) at--;
    items.splice(at, 0, m);
    return { ...data, pages: [{ ...newest, items, total: newest.total + 1 }, ...data.pages.slice(1)] };
  });
}
