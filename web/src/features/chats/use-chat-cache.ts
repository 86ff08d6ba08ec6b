import type { ChatDto, MessageDto } from '@smartconnect/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { upsertMessageInPages } from './conversation/use-messages.ts';
import { chatKeys } from './keys.ts';

/** Puts a message the user just sent into the open conversation (the realtime echo then changes nothing). */
export function useUpsertMessage() {
  const client = useQueryClient();
  // An answer to a send keeps what realtime already brought (a later status); an edit replaces.
  return (m: MessageDto, opts: { replace?: boolean } = {}) =>
    upsertMessageInPages(client, m, { keep: !opts.replace });
}

/** After an action on a chat: the answer replaces the chat, lists and counters refetch. */
export function useChatChanged() {
  const client = useQueryClient();
  return (chat: ChatDto) => {
    client.setQueryData(chatKeys.chat(chat.id), chat);
    void client.invalidateQueries({ queryKey: chatKeys.all });
  };
}
