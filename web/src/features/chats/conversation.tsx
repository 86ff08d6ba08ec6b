import { Alert, Box, Center, Stack, Text } from '@mantine/core';
import type { ChatHistoryDto, Page } from '@smartconnect/contracts';
import { IconUpload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { get } from '../../shared/api/client.ts';
import { isApiError } from '../../shared/api/errors.ts';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useCurrentUser } from '../../shared/session.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { channelUi } from '../channels/types/registry.ts';
import { useChat } from './api.ts';
import { ChatTopBar } from './chat-top-bar.tsx';
import { useOutbox } from './composer/outbox.ts';
import { useAttachments } from './composer/use-attachments.ts';
import { Composer, type ComposerHandle } from './composer.tsx';
import { useHistoryNames } from './conversation/system-event.tsx';
import { loadedMessages, useMessagePages } from './conversation/use-messages.ts';
import { chatKeys } from './keys.ts';
import { MessageList } from './message-list.tsx';
import { SessionWindow } from './session-window.tsx';
import { TakenAwayLine } from './taken-away.tsx';
import { TypingLine } from './typing-line.tsx';

/** The chat's history, read again whenever the chat changes (its updatedAt moves with every transition). */
function useHistory(chatId: string, version: string | undefined) {
  return useQuery({
    queryKey: chatKeys.history(chatId, version),
    queryFn: () => get<Page<ChatHistoryDto>>(`/api/chats/${chatId}/history`),
    enabled: version !== undefined,
    placeholderData: keepPreviousData,
    meta: { silent: true },
    select: (p) => p.items,
  });
}

/** One open chat: top bar with the actions, the conversation, the message box; files may be dropped anywhere on it. */
export function Conversation({
  chatId,
  onLeave,
  onClosed,
  onShown,
}: {
  chatId: string;
  onLeave: () => void;
  onClosed?: () => void;
  /** The chat's messages are on screen (the page then loads the side panel and marks the chat read). */
  onShown?: (chatId: string) => void;
}) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const chat = useChat(chatId);
  const pages = useMessagePages(chatId);
  const history = useHistory(chatId, chat.data?.updatedAt);
  const pending = useOutbox(chatId);
  const files = useAttachments(chatId);
  const composer = useRef<ComposerHandle>(null);
  const [dragging, setDragging] = useState(false);
  const messages = useMemo(() => loadedMessages(pages.data), [pages.data]);
  const names = useHistoryNames(chat.data);
  const loaded = !!pages.data;
  useEffect(() => {
    if (loaded) onShown?.(chatId);
  }, [loaded, chatId, onShown]);
  // After Take the message box is the next place to be: focused once it is enabled.
  const [focusAfterTake, setFocusAfterTake] = useState(false);
  const mine = chat.data?.status === 'in_progress' && chat.data.operator?.id === me.id;
  useEffect(() => {
    if (!focusAfterTake || !mine) return;
    setFocusAfterTake(false);
    requestAnimationFrame(() => composer.current?.focus());
  }, [focusAfterTake, mine]);
  // Only the server's word makes a chat gone: a lost connection keeps what is shown (the app's notice says it) and the
  // screen catches up on reconnect.
  const failure = chat.error && isApiError(chat.error) ? chat.error.status : null;
  if (failure === 404 || failure === 403)
    return (
      <>
        <TakenAwayLine chatId={chatId} />
        <Alert m="md" color="red">
          {t('errors.chatNotFoundException')}
        </Alert>
      </>
    );
  if (!chat.data && chat.isError && failure !== 0)
    return (
      <Alert m="md" color="red">
        {t('errors.unknownException')}
      </Alert>
    );
  // The top bar and the composer draw from the chat (the list's row) at once; the messages follow.
  if (!chat.data) return <SectionLoader />;
  const c = chat.data;
  const reason =
    c.status === 'closed'
      ? t('chat.closedHint')
      : c.status === 'waiting'
        ? t('chat.takeHint')
        : c.operator?.id !== me.id
          ? t('chat.notYoursHint', { name: isolate(c.operator?.name) })
          : null;
  const droppable = reason === null;
  const hasFiles = (e: React.DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
  return (
    <Stack
      gap={0}
      style={{ flex: 1, minHeight: 0, minWidth: 0, position: 'relative' }}
      data-testid="conversation"
      data-chat-id={c.id}
      onDragEnter={(e) => {
        if (droppable && hasFiles(e)) setDragging(true);
      }}
      onDragOver={(e) => {
        if (droppable && hasFiles(e)) e.preventDefault();
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        if (!droppable || !hasFiles(e)) return;
        e.preventDefault();
        setDragging(false);
        files.add(Array.from(e.dataTransfer.files));
        composer.current?.focus();
      }}
    >
      <ChatTopBar
        chat={c}
        onTransferred={onLeave}
        onTaken={() => setFocusAfterTake(true)}
        onClosed={onClosed}
      />
      {!pages.data ? (
        <Stack flex={1} justify="center" data-testid="messages-loading">
          <SectionLoader />
        </Stack>
      ) : (
        <MessageList
          chatId={c.id}
          messages={messages}
          history={history.data ?? []}
          names={names}
          pending={pending}
          meId={me.id}
          editable={c.status !== 'closed'}
          clientEdits={channelUi(c.channel.type)?.clientEdits !== false}
          hasOlder={pages.hasNextPage}
          loadingOlder={pages.isFetchingNextPage}
          loadOlder={() => void pages.fetchNextPage()}
        />
      )}
      <TakenAwayLine chatId={c.id} />
      <TypingLine chatId={c.id} />
      <SessionWindow chat={c} canWrite={reason === null} />
      <Composer ref={composer} chatId={c.id} disabledReason={reason} files={files} />
      {dragging && (
        <Box
          data-testid="drop-zone"
          style={{
            position: 'absolute',
            inset: 0,
            background: 'rgba(255,255,255,0.9)',
            border: '2px dashed var(--mantine-color-indigo-6)',
            borderRadius: 8,
            pointerEvents: 'none',
            zIndex: 10,
          }}
        >
          <Center h="100%">
            <Stack align="center" gap="xs">
              <IconUpload size={36} aria-hidden color="var(--mantine-color-indigo-7)" />
              <Text fw={600} c="indigo.8">
                {t('conversation.dropHere')}
              </Text>
            </Stack>
          </Center>
        </Box>
      )}
    </Stack>
  );
}
