import { Box, Button, Center, Divider, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { ChatHistoryDto, MessageDto } from '@smartconnect/contracts';
import { IconAlertTriangle, IconClock, IconLock } from '@tabler/icons-react';
import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { discardOutgoing, type Outgoing, retryOutgoing } from './composer/outbox.ts';
import { Attachments } from './conversation/attachments.tsx';
import { formatClock, MessageBubble } from './conversation/message-bubble.tsx';
import { type HistoryNames, SystemEvent } from './conversation/system-event.tsx';
import { buildTimeline, localDay } from './conversation/timeline.ts';
import { ROW_GAP, useWindow } from './conversation/use-window.ts';
import { useUpsertMessage } from './use-chat-cache.ts';

/** Scrolled this close to the top, the next older page loads; this close to the bottom, new messages follow. */
const EDGE = 160;

const DayLabel = memo(function DayLabel({ at }: { at: string }) {
  const { t, i18n } = useTranslation();
  const day = localDay(at);
  const now = new Date();
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  const label =
    day === localDay(now.toISOString())
      ? t('conversation.today')
      : day === localDay(yesterday.toISOString())
        ? t('conversation.yesterday')
        : dateFormat(i18n.language, { dateStyle: 'long' }).format(new Date(at));
  return (
    <Divider
      data-testid="day-separator"
      my={4}
      labelPosition="center"
      label={
        <Text size="xs" c="gray.7" fw={600} component="time" dateTime={day}>
          {label}
        </Text>
      }
    />
  );
});

/** A message on its way, or refused: 'Sending…', or 'Not sent' with Retry and Discard. */
function PendingBubble({ o }: { o: Outgoing }) {
  const { t, i18n } = useTranslation();
  const upsert = useUpsertMessage();
  const failed = o.state === 'failed';
  return (
    <Box
      data-testid="pending-message"
      data-state={o.state}
      style={{ alignSelf: 'flex-end', maxWidth: 'min(72%, 640px)', opacity: failed ? 1 : 0.75 }}
    >
      <Paper
        px="md"
        py="xs"
        radius="lg"
        style={{
          background: o.internal ? 'var(--mantine-color-yellow-0)' : 'var(--mantine-color-indigo-0)',
          border: failed
            ? '1px solid var(--mantine-color-red-7)'
            : o.internal
              ? '1px dashed var(--mantine-color-yellow-8)'
              : '1px solid var(--mantine-color-gray-3)',
        }}
      >
        {o.internal && <IconLock size={12} aria-hidden />}
        <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <UserText>{o.text}</UserText>
        </Text>
        <Attachments items={o.attachments} />
      </Paper>
      <Group gap={6} mt={2} justify="flex-end" wrap="wrap">
        <Text size="xs" c="gray.7">
          {formatClock(o.at, i18n.language)}
        </Text>
        {failed ? (
          <>
            <Group gap={2} c="red.8" wrap="nowrap" role="alert">
              <IconAlertTriangle size={14} aria-hidden />
              <Text size="xs" c="red.8" fw={600}>
                {t('conversation.failed')}
              </Text>
            </Group>
            <Button size="compact-xs" variant="light" onClick={() => retryOutgoing(o, (m) => upsert(m))}>
              {t('conversation.retry')}
            </Button>
            <Button size="compact-xs" variant="subtle" color="gray.7" onClick={() => discardOutgoing(o)}>
              {t('conversation.discard')}
            </Button>
          </>
        ) : (
          <Group gap={2} c="gray.7" wrap="nowrap">
            <IconClock size={14} aria-hidden />
            <Text size="xs" c="gray.7">
              {t('conversation.sending')}
            </Text>
          </Group>
        )}
      </Group>
    </Box>
  );
}

/**
 * The conversation: the newest page first, older pages as the operator scrolls up (the view stays where it was),
 * day separators, history events inline, unsent messages at the end. It follows new messages while the view is at
 * the bottom.
 */
export function MessageList({
  chatId,
  messages,
  history,
  names,
  pending,
  meId,
  editable,
  clientEdits = true,
  hasOlder,
  loadingOlder,
  loadOlder,
}: {
  chatId: string;
  messages: MessageDto[];
  history: ChatHistoryDto[];
  names: HistoryNames;
  pending: Outgoing[];
  meId: string;
  editable: boolean;
  /** The channel can edit a message the client has (false: only internal notes are editable). */
  clientEdits?: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const timeline = useMemo(
    () => buildTimeline(messages, history, localDay, !hasOlder),
    [messages, history, hasOlder],
  );
  // Where the view was before an older page came: it stays on the same message.
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const atBottom = useRef(true);
  // A message being sent whose realtime echo came before the answer to the send is shown once, as the echo.
  const shownPending = useMemo(() => {
    const recent = messages.slice(-20).filter((m) => m.author?.id === meId);
    return pending.filter(
      (o) =>
        o.state === 'failed' ||
        !recent.some(
          (m) =>
            m.text === o.text &&
            m.internal === o.internal &&
            Date.parse(m.createdAt) >= Date.parse(o.at) - 10_000,
        ),
    );
  }, [messages, pending, meId]);
  // Only the rows in and around the view are drawn (conversation/use-window.ts); a search hit stays drawn.
  const [params] = useSearchParams();
  const w = useWindow(box, timeline, params.get('message'));
  let floating: { at: string } | null = null;
  for (let i = w.start - 1; i >= 0 && !floating; i--) {
    const e = timeline[i];
    if (e.type === 'day') floating = e;
  }
  const firstId = messages[0]?.id;
  const lastKey = `${messages.at(-1)?.id}:${pending.length}:${history.length}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new chat opens at its newest message
  useLayoutEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
    atBottom.current = true;
    anchor.current = null;
  }, [chatId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when an older page was put on top
  useLayoutEffect(() => {
    const el = box.current;
    if (el && anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    }
  }, [firstId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the end while the view is there
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastKey]);

  // Rows measured at their real height: at the end of the conversation the view stays at the end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a drawn row's height became known
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [w.version]);

  const older = () => {
    const el = box.current;
    if (!el || !hasOlder || loadingOlder) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    loadOlder();
  };

  // A page that does not fill the view cannot be scrolled up: the next older one loads by itself.
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked whenever the loaded range or its state changes
  useEffect(() => {
    const el = box.current;
    if (el && hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight + EDGE) older();
  }, [firstId, hasOlder, loadingOlder]);

  return (
    <Stack
      ref={box}
      gap={0}
      p="md"
      role="log"
      aria-label={t('conversation.messages')}
      aria-busy={loadingOlder}
      data-testid="message-list"
      data-loaded={messages.length}
      tabIndex={0}
      onScroll={(e) => {
        w.onScroll();
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE;
        if (el.scrollTop < EDGE) older();
      }}
      style={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        overflowX: 'hidden',
        background: 'var(--mantine-color-gray-0)',
        // The window keeps the view in place itself (use-window.ts); the browser's own anchoring would do it twice.
        overflowAnchor: 'none',
        position: 'relative',
      }}
    >
      {hasOlder ? (
        <Center mb="sm">
          {loadingOlder ? (
            <Group gap="xs" data-testid="loading-older">
              <Loader size="xs" />
              <Text size="xs" c="gray.7">
                {t('conversation.loadingOlder')}
              </Text>
            </Group>
          ) : (
            <Button size="compact-xs" variant="subtle" onClick={older}>
              {t('conversation.loadOlder')}
            </Button>
          )}
        </Center>
      ) : (
        messages.length > 0 && (
          <Text size="xs" c="gray.7" ta="center" mb="sm" data-testid="conversation-start">
            {t('conversation.start')}
          </Text>
        )
      )}
      {messages.length === 0 && pending.length === 0 && (
        <Center style={{ flex: 1 }}>
          <Text size="sm" c="gray.7">
            {t('conversation.empty')}
          </Text>
        </Center>
      )}
      {floating && (
        // The day of the rows at the top of the view while its separator is above them, out of the DOM.
        <div
          style={{
            position: 'sticky',
            top: 'calc(-1 * var(--mantine-spacing-md))',
            height: 0,
            zIndex: 2,
            flexShrink: 0,
          }}
        >
          <Box bg="gray.0" pt={4} pb={4}>
            <DayLabel at={floating.at} />
          </Box>
        </div>
      )}
      <div ref={w.spacer} style={{ height: w.before, flexShrink: 0 }} />
      {timeline.slice(w.start, w.end).map((e) => (
        <div
          key={e.key}
          data-row={e.key}
          ref={w.measure}
          style={{ display: 'flex', flexDirection: 'column', paddingBottom: ROW_GAP, flexShrink: 0 }}
        >
          {e.type === 'day' ? (
            <DayLabel at={e.at} />
          ) : e.type === 'event' ? (
            <SystemEvent event={e.event} names={names} />
          ) : (
            <MessageBubble
              message={e.message}
              mine={e.message.author?.id === meId}
              editable={editable}
              clientEdits={clientEdits}
            />
          )}
        </div>
      ))}
      <div style={{ height: w.after, flexShrink: 0 }} />
      {shownPending.length > 0 && (
        <Stack gap="sm">
          {shownPending.map((o) => (
            <PendingBubble key={o.localId} o={o} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
