import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/session.tsx';
import { isolate } from '../../shared/bidi.ts';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { useChat, useMessages } from './api.ts';
import { ChatTopBar } from './chat-top-bar.tsx';
import { Composer } from './composer.tsx';
import { MessageList } from './message-list.tsx';

/** One open chat: top bar with the actions, the messages, the message box. */
export function Conversation({ chatId, onLeave }: { chatId: string; onLeave: () => void }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const chat = useChat(chatId);
  const messages = useMessages(chatId);
  if (chat.isError)
    return (
      <Alert m="md" color="red">
        {t('errors.chatNotFoundException')}
      </Alert>
    );
  if (!chat.data || messages.isLoading) return <SectionLoader />;
  const c = chat.data;
  const reason =
    c.status === 'closed'
      ? t('chat.closedHint')
      : c.status === 'waiting'
        ? t('chat.takeHint')
        : c.operator?.id !== me.id
          ? t('chat.notYoursHint', { name: isolate(c.operator?.name) })
          : null;
  return (
    <Stack gap={0} style={{ flex: 1, minHeight: 0 }}>
      <ChatTopBar chat={c} onTransferred={onLeave} />
      <MessageList messages={messages.data ?? []} />
      <Composer chatId={c.id} disabledReason={reason} />
    </Stack>
  );
}
