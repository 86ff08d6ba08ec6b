import { Avatar, Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ChatDto } from '@smartconnect/contracts';
import { useTranslation } from 'react-i18next';
import { initialsOf } from '../../shared/bidi.ts';
import { UserText } from '../../shared/ui/user-text.tsx';

const OVERDUE: Record<string, string | undefined> = {
  half_expired: 'var(--mantine-color-yellow-1)',
  expired: 'var(--mantine-color-red-1)',
};

export function formatTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return new Intl.DateTimeFormat(locale, today ? { timeStyle: 'short' } : { dateStyle: 'short' }).format(d);
}

/** The chats of one tab: client, channel, last message, time, operator; overdue rows coloured (§4). */
export function ChatList({
  items,
  selected,
  onSelect,
}: {
  items: ChatDto[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap={0} style={{ overflowY: 'auto' }} role="list" aria-label={t('chat.list')}>
      {items.map((chat) => {
        const name = chat.client.name || chat.client.externalId;
        const active = chat.id === selected;
        return (
          <UnstyledButton
            key={chat.id}
            role="listitem"
            p="md"
            className="sc-table-row"
            data-testid="chat-row"
            data-overdue={chat.overdueLevel}
            aria-current={active ? 'true' : undefined}
            onClick={() => onSelect(chat.id)}
            style={{
              background: active ? 'var(--mantine-color-indigo-0)' : OVERDUE[chat.overdueLevel],
              borderBottom: '1px solid var(--mantine-color-gray-2)',
            }}
          >
            <Group wrap="nowrap" gap="sm" align="flex-start">
              <Avatar name={initialsOf(name)} color="initials" radius="xl" />
              <div style={{ minWidth: 0, flex: 1 }}>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" fw={600} truncate>
                    <UserText>{name}</UserText>
                  </Text>
                  <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {formatTime(chat.lastMessage?.at ?? chat.updatedAt, i18n.language)}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed" truncate>
                  <UserText>{chat.lastMessage?.text}</UserText>
                </Text>
                <Group gap={6} mt={4} wrap="nowrap">
                  <Badge size="xs" variant="light" color="gray">
                    <UserText>{chat.channel.name}</UserText>
                  </Badge>
                  {chat.operator && (
                    <Text size="xs" c="dimmed" truncate>
                      <UserText>{chat.operator.name}</UserText>
                    </Text>
                  )}
                  {chat.overdueLevel !== 'none' && (
                    <Badge size="xs" color={chat.overdueLevel === 'expired' ? 'red' : 'yellow'}>
                      {t(`chat.overdue.${chat.overdueLevel}`)}
                    </Badge>
                  )}
                </Group>
              </div>
            </Group>
          </UnstyledButton>
        );
      })}
    </Stack>
  );
}
