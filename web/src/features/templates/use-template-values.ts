import type { TemplateValues } from '@smartconnect/contracts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useCurrentUser } from '../../shared/session.tsx';
import { useChat } from '../chats/api.ts';

/** The values of the template variables for an open chat: its client and channel, the operator, today's date. */
export function useTemplateValues(chatId: string): () => TemplateValues {
  const { i18n } = useTranslation();
  const me = useCurrentUser();
  const chat = useChat(chatId).data;
  return () => ({
    client_name: chat?.client.name,
    operator_name: me.name,
    channel: chat?.channel.name,
    date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short' }).format(new Date()),
  });
}
