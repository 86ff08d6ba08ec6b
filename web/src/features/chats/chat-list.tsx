import { Avatar, Badge, Group, Text, UnstyledButton } from '@mantine/core';
import type { ChatListItemDto } from '@smartconnect/contracts';
import { memo, useCallback, useRef } from 'react';
import { initialsOf } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { elapsed, useNow } from './list/use-now.ts';
import { VirtualList } from './list/virtual-list.tsx';

/** §4 overdue colouring: half-overdue yellow, overdue red (a left stripe and a tint, with a label). */
const OVERDUE: Record<string, { bg: string; bar: string } | undefined> = {
  half_expired: { bg: 'var(--mantine-color-yellow-0)', bar: 'var(--mantine-color-yellow-6)' },
  expired: { bg: 'var(--mantine-color-red-0)', bar: 'var(--mantine-color-red-7)' },
};
export const CHAT_ROW_HEIGHT = 92;

export function formatTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return dateFormat(locale, today ? { timeStyle: 'short' } : { dateStyle: 'short' }).format(d);
}

const ChatRow = memo(function ChatRow({
  chat,
  active,
  now,
  onSelect,
  onPreview,
}: {
  chat: ChatListItemDto;
  active: boolean;
  now: number;
  onSelect: (id: string) => void;
  onPreview?: (id: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = chat.client.name || chat.client.externalId;
  const overdue = OVERDUE[chat.overdueLevel];
  const unread = chat.unread > 0 && !active;
  return (
    <UnstyledButton
      role="listitem"
      px="md"
      py="sm"
      h={CHAT_ROW_HEIGHT}
      w="100%"
      data-testid="chat-row"
      data-chat-id={chat.id}
      data-overdue={chat.overdueLevel}
      data-unread={unread ? chat.unread : 0}
      aria-current={active ? 'true' : undefined}
      onClick={() => onSelect(chat.id)}
      onPointerEnter={() => onPreview?.(chat.id)}
      onFocus={() => onPreview?.(chat.id)}
      style={{
        display: 'block',
        background: active ? 'var(--mantine-color-indigo-0)' : overdue?.bg,
        borderBottom: '1px solid var(--mantine-color-gray-2)',
        borderLeft: `4px solid ${overdue?.bar ?? 'transparent'}`,
      }}
    >
      <Group wrap="nowrap" gap="sm" align="flex-start">
        <Avatar name={initialsOf(name)} color="initials" radius="xl" />
        <div style={{ minWidth: 0, flex: 1 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm" fw={unread ? 750 : 600} truncate>
              <UserText>{name}</UserText>
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {formatTime(chat.lastMessage?.at ?? chat.updatedAt, i18n.language)}
            </Text>
          </Group>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="xs" c={unread ? undefined : 'dimmed'} fw={unread ? 600 : undefined} truncate>
              <UserText>{chat.lastMessage?.text}</UserText>
            </Text>
            {unread && (
              <Badge
                size="sm"
                circle={chat.unread < 10}
                variant="filled"
                color="indigo"
                aria-label={t('workspace.unread', { count: chat.unread })}
                data-testid="unread"
              >
                {chat.unread >= 100 ? '99+' : chat.unread}
              </Badge>
            )}
          </Group>
          <Group gap={6} mt={4} wrap="nowrap">
            <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
              <UserText>{chat.channel.name}</UserText>
            </Badge>
            {chat.status === 'waiting' && (
              <Text size="xs" c="dimmed" data-testid="waiting-time" style={{ flexShrink: 0 }}>
                {t('workspace.waitingFor', { time: elapsed(chat.createdAt, now, t) })}
              </Text>
            )}
            {chat.operator && chat.status !== 'waiting' && (
              <Text size="xs" c="dimmed" truncate>
                <UserText>{chat.operator.name}</UserText>
              </Text>
            )}
            {chat.overdueLevel !== 'none' && (
              <Badge
                size="xs"
                variant="filled"
                color={chat.overdueLevel === 'expired' ? 'red.8' : 'yellow.4'}
                c={chat.overdueLevel === 'expired' ? 'white' : 'dark.9'}
              >
                {t(`chat.overdue.${chat.overdueLevel}`)}
              </Badge>
            )}
          </Group>
        </div>
      </Group>
    </UnstyledButton>
  );
});

/**
 * The chats of one tab, virtualised (only the rows in view are rendered): client, last message, unread count,
 * channel, live waiting time, operator; overdue rows coloured (§4). `onEnd` loads the next cursor page.
 */
export function ChatList({
  items,
  selected,
  onSelect,
  onPreview,
  onEnd,
}: {
  items: ChatListItemDto[];
  selected: string | null;
  onSelect: (id: string) => void;
  /** A row hovered or focused: its chat may be opened next (the page prefetches its newest messages). */
  onPreview?: (id: string) => void;
  onEnd?: () => void;
}) {
  const { t } = useTranslation();
  const now = useNow(1000);
  // Stable handlers, so a row redraws only when its chat, its state or the clock changes (ChatRow is memoised).
  const handlers = useRef({ onSelect, onPreview });
  handlers.current = { onSelect, onPreview };
  const select = useCallback((id: string) => handlers.current.onSelect(id), []);
  const preview = useCallback((id: string) => handlers.current.onPreview?.(id), []);
  return (
    <VirtualList
      items={items}
      rowHeight={CHAT_ROW_HEIGHT}
      label={t('chat.list')}
      testId="chat-list"
      onEnd={onEnd}
      activeKey={selected}
      getKey={(chat) => chat.id}
      render={(chat) => (
        <ChatRow chat={chat} active={chat.id === selected} now={now} onSelect={select} onPreview={preview} />
      )}
    />
  );
}
