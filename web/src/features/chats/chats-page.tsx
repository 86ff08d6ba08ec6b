import { Badge, Box, Button, Drawer, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconId, IconInbox, IconMessageCircle, IconSearchOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useCurrentUser } from '../../shared/session.tsx';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { CHAT_FILTERS, type ChatFilter, chatQuery, useChatCounters } from './api.ts';
import { ChatList } from './chat-list.tsx';
import { prefetchMessages } from './conversation/use-messages.ts';
import { Conversation } from './conversation.tsx';
import { FirstRunChecklist } from './first-run.tsx';
import { flatten, type ListFilters, markRead, setUnread, useChatPages } from './list/list-api.ts';
import { ListFiltersBar } from './list/list-filters.tsx';
import { useScrollToMessage } from './list/use-scroll-to-message.ts';
import { afterLeaving, neighbour } from './shortcuts/keys.ts';
import { ShortcutsHelp } from './shortcuts/shortcuts-help.tsx';
import {
  focusChatRow,
  focusComposer,
  runChatCommand,
  useWorkspaceKeys,
} from './shortcuts/use-workspace-keys.ts';
import { ClientPanel } from './side-panel/client-panel.tsx';
import { ClientPanelColumn } from './side-panel/panel-column.tsx';

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
const FILTER_KEYS = ['channelId', 'teamId', 'operatorId', 'q'] as const;
const BORDER = '1px solid var(--mantine-color-gray-3)';

/** Marks the open chat read when it opens and whenever a client message arrives in it. */
function useReadMark(chatId: string | null, lastAt: string | undefined) {
  const client = useQueryClient();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new client message (lastAt) marks the chat read again
  useEffect(() => {
    if (!chatId) return;
    setUnread(client, chatId, 0);
    markRead(chatId).catch(() => undefined);
  }, [client, chatId, lastAt]);
}

/**
 * /admin/chats?filter=assigned|waiting|closed[&chat=<id>][&q=&channelId=&teamId=&operatorId=]: the chat list
 * (cursor pages, virtualised), the open conversation and the client side panel.
 */
export function ChatsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const raw = params.get('filter');
  const filter: ChatFilter = CHAT_FILTERS.includes(raw as ChatFilter) ? (raw as ChatFilter) : 'assigned';
  const selected = params.get('chat');
  const filters: ListFilters = Object.fromEntries(
    FILTER_KEYS.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v),
  );
  const chats = useChatPages(filter, filters);
  const counters = useChatCounters();
  const items = flatten(chats.data);
  const client = useQueryClient();
  const row = selected ? items.find((c) => c.id === selected) : undefined;
  const open = useQuery({
    ...chatQuery(selected ?? '', row && { chat: row, at: chats.dataUpdatedAt }),
    enabled: !!selected,
  });
  const openChat = selected ? open.data : undefined;
  // The chat whose messages are on screen: the side panel and the read mark wait for it, so a switch's first
  // requests are the messages (and, for a chat not in the list, the chat).
  const [shown, setShown] = useState<string | null>(null);
  const ready = !!selected && shown === selected;
  const go = (next: { filter?: ChatFilter; chat?: string | null; filters?: ListFilters }) => {
    const p: Record<string, string> = { filter: next.filter ?? filter };
    const chat = next.chat === undefined ? selected : next.chat;
    if (chat) p.chat = chat;
    for (const [k, v] of Object.entries(next.filters ?? filters)) if (v) p[k] = v;
    setParams(p);
  };
  // The chat chosen last: the address's. The router changes the address at once and draws the switch as a
  // transition, so the screen (and `selected`) can still show an earlier chat for a moment after a click or an arrow
  // key (and an earlier switch may be drawn after a later one was chosen): keys pressed meanwhile (Esc back to the
  // row, R, the next arrow) already mean the chosen one.
  const chosen = () => new URLSearchParams(window.location.search).get('chat');
  // The newest page's request starts with the click (or the arrow key), before the screen draws the switch.
  const select = (chat: string | null) => {
    if (chat) prefetchMessages(client, chat);
    go({ chat });
  };
  useReadMark(ready ? selected : null, openChat?.lastClientMessageAt ?? undefined);
  useScrollToMessage(selected, params.get('message'));
  // After Take the chat is in progress: the list follows it there.
  useEffect(() => {
    if (
      openChat &&
      filter === 'waiting' &&
      openChat.status === 'in_progress' &&
      openChat.operator?.id === me.id
    )
      go({ filter: 'assigned', chat: openChat.id });
  });
  // A phone shows one pane at a time: the list, or the open chat with a way back to the list.
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const wide = useMediaQuery('(min-width: 75em)') ?? false;
  const filtered = FILTER_KEYS.some((k) => filters[k]);
  // Keyboard (shortcuts/keys.ts): arrows between chats, R to write, Esc back to the list, ? for the help.
  const [help, setHelp] = useState(false);
  // Below 1200 px the client side panel opens as a sheet over the conversation.
  const [sheet, setSheet] = useState(false);
  const sheetOpen = sheet && !wide && !!openChat;
  const ids = items.map((c) => c.id);
  const move = (delta: 1 | -1) => {
    // From the row that has the focus when there is one, else from the open chat.
    const focused = document.activeElement
      ?.closest('[data-chat-list] [data-chat-id]')
      ?.getAttribute('data-chat-id');
    const id = neighbour(ids, focused ?? chosen(), delta);
    if (!id) return;
    select(id);
    focusChatRow(id);
  };
  useWorkspaceKeys({
    next: () => move(1),
    previous: () => move(-1),
    composer: () => focusComposer(chosen()),
    list: () => focusChatRow(chosen()),
    help: () => setHelp((o) => !o),
    take: () => runChatCommand('take'),
    transfer: () => runChatCommand('transfer'),
    close: () => runChatCommand('close'),
    category: () => runChatCommand('category'),
  });
  // A transferred chat left the operator's hands: on to the next one, focus on its row (on a phone, back to the
  // list). A closed chat stays on the screen to be read, and the focus moves to the next chat's row.
  const leave = (chatId: string) => {
    const next = narrow ? null : afterLeaving(ids, chatId);
    select(next);
    focusChatRow(next);
  };
  const closed = (chatId: string) => focusChatRow(afterLeaving(ids, chatId));

  return (
    // Panes edge to edge, as tall as the window leaves under the banners (admin-layout.tsx): the conversation gets
    // the room (issue 36).
    <Group
      align="stretch"
      gap={0}
      wrap="nowrap"
      mih={480}
      style={{ flex: '1 1 0', minHeight: 0, background: 'white' }}
    >
      <Paper
        w={narrow ? '100%' : 288}
        p={0}
        withBorder={false}
        radius={0}
        style={{
          display: narrow && selected ? 'none' : 'flex',
          flexDirection: 'column',
          flexShrink: 0,
          overflow: 'hidden',
          borderRight: narrow ? undefined : BORDER,
        }}
      >
        <Stack p="md" gap="sm" style={{ borderBottom: BORDER }}>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={650} size="lg" component="h1" id="chat-center-title" tabIndex={-1}>
              {t('menu.chatCenter')}
            </Text>
            <ShortcutsHelp opened={help} onChange={setHelp} />
          </Group>
          <SegmentedControl
            fullWidth
            size="xs"
            value={filter}
            onChange={(v) => go({ filter: v as ChatFilter, chat: null })}
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
          <ListFiltersBar value={filters} onChange={(f) => go({ filters: f })} />
        </Stack>
        {chats.isLoading ? (
          <SectionLoader />
        ) : items.length === 0 ? (
          filtered ? (
            <EmptyState icon={<IconSearchOff size={28} />} title={t('workspace.noResults')} color="gray" />
          ) : (
            <>
              {/* A phone shows the list alone: the first-run checklist comes here instead of the chat's pane. */}
              {narrow && (
                <Box p="md">
                  <FirstRunChecklist />
                </Box>
              )}
              <EmptyState
                icon={<IconInbox size={28} />}
                title={t(EMPTY[filter])}
                text={t('chats.emptyHint')}
              />
            </>
          )
        ) : (
          <ChatList
            items={items}
            selected={selected}
            onSelect={select}
            onPreview={(id) => prefetchMessages(client, id)}
            onEnd={() => {
              if (chats.hasNextPage && !chats.isFetchingNextPage) void chats.fetchNextPage();
            }}
          />
        )}
      </Paper>
      <Paper
        p={0}
        withBorder={false}
        radius={0}
        style={{
          flex: 1,
          minWidth: 0,
          display: narrow && !selected ? 'none' : 'flex',
          flexDirection: 'column',
          overflow: 'hidden',
        }}
      >
        {selected && (narrow || (!wide && openChat)) && (
          <Group justify="space-between" wrap="nowrap" px="xs" pt="xs" gap="xs">
            {narrow ? (
              <Button
                variant="subtle"
                size="xs"
                leftSection={<IconArrowLeft size={14} />}
                onClick={() => select(null)}
              >
                {t('chats.backToList')}
              </Button>
            ) : (
              <span />
            )}
            {!wide && openChat && (
              <Button
                variant="light"
                size="xs"
                leftSection={<IconId size={14} aria-hidden />}
                onClick={() => setSheet(true)}
                data-testid="client-panel-open"
                aria-haspopup="dialog"
              >
                {t('workspace.clientPanel')}
              </Button>
            )}
          </Group>
        )}
        {selected ? (
          <Conversation
            key={selected}
            chatId={selected}
            onLeave={() => leave(selected)}
            onClosed={() => closed(selected)}
            onShown={setShown}
          />
        ) : (
          <Stack flex={1} justify="center" p="md">
            {items.length === 0 && !filtered && !narrow && <FirstRunChecklist />}
            <EmptyState icon={<IconMessageCircle size={30} />} title={t('chats.selectHint')} color="gray" />
          </Stack>
        )}
      </Paper>
      <Drawer
        opened={sheetOpen}
        onClose={() => setSheet(false)}
        position={narrow ? 'bottom' : 'right'}
        size={narrow ? '85%' : 360}
        padding={0}
        styles={{ header: { paddingInline: 'var(--mantine-spacing-md)' } }}
        title={t('workspace.clientPanel')}
        closeButtonProps={{ 'aria-label': t('common.close') }}
        data-testid="client-panel-sheet"
      >
        {openChat && ready && <ClientPanel key={openChat.client.id} chat={openChat} />}
      </Drawer>
      {wide && openChat && <ClientPanelColumn chat={openChat} ready={ready} />}
    </Group>
  );
}
