import { Avatar, Badge, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ChatDto } from '@smartconnect/contracts';
import { IconArrowsExchange, IconCircleCheck, IconHandGrab, IconUserBolt } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { post } from '../../shared/api/client.ts';
import { initialsOf } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess, useCurrentUser } from '../../shared/session.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { pathText } from '../categories/api.ts';
import { takeChat } from './api.ts';
import { CategoryPicker } from './category-picker.tsx';
import { ChatRating } from './chat-rating.tsx';
import { ChatTopic } from './chat-topic.tsx';
import { CloseDialog } from './close-dialog.tsx';
import { useChatCommandsTarget } from './shortcuts/use-workspace-keys.ts';
import { TransferDialog } from './transfer-dialog.tsx';
import { useChatChanged } from './use-chat-cache.ts';

const STATUS_COLOR = { waiting: 'orange', in_progress: 'teal', closed: 'gray' } as const;

/**
 * §2.6 top bar: client and channel, status, then take (Waiting), transfer and close. The callbacks place the focus
 * afterwards (the message box after Take, the next chat after transfer and close).
 */
export function ChatTopBar({
  chat,
  onTransferred,
  onTaken,
  onClosed,
}: {
  chat: ChatDto;
  onTransferred: () => void;
  onTaken?: () => void;
  onClosed?: () => void;
}) {
  const { t } = useTranslation();
  const changed = useChatChanged();
  const access = useAccess();
  const me = useCurrentUser();
  const withCategory = access.has('OPTION_CATEGORY');
  // A supervisor or administrator may take over a chat someone else handles (the server checks the right).
  const canTakeOver =
    access.can('AUTHORITY_ALL_CHATS') && chat.status === 'in_progress' && chat.operator?.id !== me.id;
  const takeOver = useMutation({
    mutationFn: () => post<ChatDto>(`/api/chats/${chat.id}/takeover`),
    onSuccess: (c) => {
      changed(c);
      notifications.show({ color: 'teal', message: t('conversation.takenOver') });
      onTaken?.();
    },
  });
  const [dialog, setDialog] = useState<'transfer' | 'close' | null>(null);
  const take = useMutation({
    mutationFn: () => takeChat(chat.id),
    onSuccess: (c) => {
      changed(c);
      onTaken?.();
    },
  });
  // The core loop from the keyboard (shortcuts/keys.ts): T takes, K opens the category, X transfers, C closes.
  useChatCommandsTarget({
    ...(chat.status === 'waiting' && { take: () => !take.isPending && take.mutate() }),
    ...(chat.status !== 'closed' && {
      transfer: () => setDialog('transfer'),
      close: () => setDialog('close'),
    }),
    ...(withCategory &&
      chat.status === 'in_progress' && {
        category: () => document.querySelector<HTMLElement>('[data-testid="category-picker"]')?.click(),
      }),
  });
  const name = chat.client.name || chat.client.externalId;
  return (
    <Group
      px="sm"
      py="sm"
      justify="space-between"
      wrap="wrap"
      gap="xs"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      data-testid="chat-top-bar"
    >
      {/* The client's part yields its width first (truncated): the bar wraps only when 7rem no longer fits. */}
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 7rem' }}>
        <Avatar name={initialsOf(name)} color="initials" radius="xl" size="sm" />
        <div style={{ minWidth: 0 }}>
          <Text fw={650} truncate data-testid="chat-client">
            <UserText>{name}</UserText>
          </Text>
          {/* The status opens the second line: the bar keeps one line at 1440 px with the menu and the panel open. */}
          <Group gap={6} wrap="nowrap">
            <Badge
              color={STATUS_COLOR[chat.status]}
              variant="light"
              size="xs"
              data-testid="chat-status"
              style={{ flexShrink: 0, overflow: 'visible' }}
            >
              {t(`chat.status.${chat.status}`)}
            </Badge>
            <Text size="xs" c="gray.7" truncate style={{ minWidth: 0 }}>
              <span
                data-testid="chat-channel"
                title={t('conversation.channel', { type: t(`channels.types.${chat.channel.type}`) })}
              >
                {t(`channels.types.${chat.channel.type}`)}
              </span>
              {' · '}
              <UserText>{chat.channel.name}</UserText> · <UserText>{chat.team.name}</UserText>
              {chat.operator && (
                <>
                  {' · '}
                  <UserText>{chat.operator.name}</UserText>
                </>
              )}
              {chat.category && (
                <>
                  {' · '}
                  <UserText>{pathText(chat.category.path)}</UserText>
                </>
              )}
            </Text>
          </Group>
          {chat.topic && <ChatTopic topic={chat.topic} />}
        </div>
      </Group>
      <Group gap="xs" wrap="wrap" style={{ flexShrink: 0, maxWidth: '100%' }}>
        <ChatRating chat={chat} />
        {chat.status === 'waiting' && (
          <Button
            size="xs"
            leftSection={<IconHandGrab size={16} />}
            loading={take.isPending}
            onClick={() => take.mutate()}
          >
            {t('chat.take')}
          </Button>
        )}
        {canTakeOver && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconUserBolt size={16} aria-hidden />}
            loading={takeOver.isPending}
            onClick={() => takeOver.mutate()}
            data-testid="take-over"
          >
            {t('conversation.takeOver')}
          </Button>
        )}
        {chat.status !== 'closed' && (
          <>
            {withCategory && chat.status === 'in_progress' && <CategoryPicker chat={chat} />}
            <Button
              size="xs"
              variant="default"
              leftSection={<IconArrowsExchange size={16} />}
              onClick={() => setDialog('transfer')}
            >
              {t('chat.transfer')}
            </Button>
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconCircleCheck size={16} />}
              onClick={() => setDialog('close')}
            >
              {t('chat.close')}
            </Button>
          </>
        )}
      </Group>
      <TransferDialog
        chat={chat}
        opened={dialog === 'transfer'}
        onClose={() => setDialog(null)}
        onTransferred={onTransferred}
      />
      {/* Keyed by the category: opened after a change in the top bar, the dialog starts from the new one. */}
      <CloseDialog
        key={chat.category?.id ?? 'none'}
        chat={chat}
        opened={dialog === 'close'}
        onClose={() => setDialog(null)}
        onClosedChat={onClosed}
      />
    </Group>
  );
}
