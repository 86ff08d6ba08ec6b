import { Avatar, Group, Paper, SegmentedControl, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconInbox, IconMessageCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { CHAT_FILTERS, type ChatFilter, chatsQuery } from './api.ts';

const EMPTY: Record<ChatFilter, string> = {
  assigned: 'chats.emptyAssigned',
  waiting: 'chats.emptyWaiting',
  closed: 'chats.emptyClosed',
};
const LABEL: Record<ChatFilter, string> = {
  assigned: 'menu.inProgress',
  waiting: 'menu.waiting',
  closed: 'menu.closed',
};

/** /admin/chats?filter=assigned|waiting|closed: the chat center (the conversation view comes with its issue). */
export function ChatsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('filter');
  const filter: ChatFilter = CHAT_FILTERS.includes(raw as ChatFilter) ? (raw as ChatFilter) : 'assigned';
  const chats = useQuery(chatsQuery(filter));
  const items = chats.data?.items ?? [];

  return (
    <Group
      align="stretch"
      gap="lg"
      wrap="nowrap"
      h="calc(100vh - 64px - 2 * var(--mantine-spacing-xl))"
      mih={480}
    >
      <Paper w={340} p={0} style={{ display: 'flex', flexDirection: 'column', flexShrink: 0 }}>
        <Stack p="md" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fw={650} size="lg">
            {t('menu.chatCenter')}
          </Text>
          <SegmentedControl
            fullWidth
            size="xs"
            value={filter}
            onChange={(v) => setParams({ filter: v })}
            data={CHAT_FILTERS.map((f) => ({ value: f, label: t(LABEL[f]) }))}
          />
        </Stack>
        {chats.isLoading ? (
          <SectionLoader />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconInbox size={28} />} title={t(EMPTY[filter])} text={t('chats.emptyHint')} />
        ) : (
          <Stack gap={0} style={{ overflowY: 'auto' }}>
            {items.map((chat) => {
              const name = chat.client?.name ?? chat.clientName ?? '—';
              return (
                <UnstyledButton key={chat.id} p="md" className="sc-table-row">
                  <Group wrap="nowrap" gap="sm">
                    <Avatar name={name} color="initials" radius="xl" />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        {name}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {chat.lastMessage?.text ?? ''}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              );
            })}
          </Stack>
        )}
      </Paper>
      <Paper style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <EmptyState icon={<IconMessageCircle size={30} />} title={t('chats.selectHint')} color="gray" />
      </Paper>
    </Group>
  );
}
