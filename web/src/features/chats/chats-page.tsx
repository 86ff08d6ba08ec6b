import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconInbox, IconMessageCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { CHAT_FILTERS, type ChatFilter, chatsQuery, useChatCounters } from './api.ts';
import { ChatList } from './chat-list.tsx';
import { Conversation } from './conversation.tsx';

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

/** /admin/chats?filter=assigned|waiting|closed[&chat=<id>]: the chat list and the open conversation. */
export function ChatsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const raw = params.get('filter');
  const filter: ChatFilter = CHAT_FILTERS.includes(raw as ChatFilter) ? (raw as ChatFilter) : 'assigned';
  const selected = params.get('chat');
  const chats = useQuery(chatsQuery(filter));
  const counters = useChatCounters();
  const items = chats.data?.items ?? [];
  const select = (chat: string | null) => setParams(chat ? { filter, chat } : { filter });
  // A phone shows one pane at a time: the list, or the open chat with a way back to the list.
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;

  return (
    <Group
      align="stretch"
      gap="lg"
      wrap="nowrap"
      h="calc(100vh - 64px - 2 * var(--mantine-spacing-xl))"
      mih={480}
    >
      <Paper
        w={narrow ? '100%' : 340}
        p={0}
        style={{
          display: narrow && selected ? 'none' : 'flex',
          flexDirection: 'column',
          flexShrink: 0,
          overflow: 'hidden',
        }}
      >
        <Stack p="md" gap="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fw={650} size="lg">
            {t('menu.chatCenter')}
          </Text>
          <SegmentedControl
            fullWidth
            size="xs"
            value={filter}
            onChange={(v) => setParams({ filter: v })}
            data={CHAT_FILTERS.map((f) => ({
              value: f,
              label: (
                <Group gap={4} justify="center" wrap="nowrap">
                  <span>{t(LABEL[f])}</span>
                  {counters?.[f] ? (
                    <Badge size="xs" circle={counters[f] < 10} variant="filled">
                      {counters[f]}
                    </Badge>
                  ) : null}
                </Group>
              ),
            }))}
          />
        </Stack>
        {chats.isLoading ? (
          <SectionLoader />
        ) : items.length === 0 ? (
          <EmptyState icon={<IconInbox size={28} />} title={t(EMPTY[filter])} text={t('chats.emptyHint')} />
        ) : (
          <ChatList items={items} selected={selected} onSelect={select} />
        )}
      </Paper>
      <Paper
        p={0}
        style={{
          flex: 1,
          minWidth: 0,
          display: narrow && !selected ? 'none' : 'flex',
          flexDirection: 'column',
          overflow: 'hidden',
        }}
      >
        {selected && narrow && (
          <Button
            variant="subtle"
            size="xs"
            m="xs"
            style={{ alignSelf: 'flex-start' }}
            leftSection={<IconArrowLeft size={14} />}
            onClick={() => select(null)}
          >
            {t('chats.backToList')}
          </Button>
        )}
        {selected ? (
          <Conversation key={selected} chatId={selected} onLeave={() => select(null)} />
        ) : (
          <Stack flex={1} justify="center">
            <EmptyState icon={<IconMessageCircle size={30} />} title={t('chats.selectHint')} color="gray" />
          </Stack>
        )}
      </Paper>
    </Group>
  );
}
