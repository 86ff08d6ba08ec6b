import type { ChatDto, MessageDto, Page } from '@smartconnect/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { chatKeys } from './api.ts';

/** Puts a message the user just sent into the open conversation (the realtime echo then changes nothing). */
export function useUpsertMessage() {
  const client = useQueryClient();
  return (m: MessageDto) =>
    client.setQueryData<Page<MessageDto>>(chatKeys.messages(m.chatId), (page) => {
      if (!page) return page;
      const i = page.items.findIndex((x) => x.id === m.id);
      if (i !== -1) return page;
      return { items: [...page.items, m], total: page.total + 1 };
    });
}

/** After an action on a chat: the answer replaces the chat, lists and counters refetch. */
export function useChatChanged() {
  const client = useQueryClient();
  return (chat: ChatDto) => {
    client.setQueryData(chatKeys.chat(chat.id), chat);
    void client.invalidateQueries({ queryKey: chatKeys.all });
  };
}
