import { Badge, Box, Group, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { MessageDto } from '@smartconnect/contracts';
import { IconCheck, IconChecks, IconClock, IconExternalLink, IconLock, IconX } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { UserText } from '../../shared/ui/user-text.tsx';
import { formatTime } from './chat-list.tsx';

const STATUS_ICON = {
  pending: IconClock,
  sent: IconCheck,
  delivered: IconChecks,
  read: IconChecks,
  undelivered: IconX,
} as const;

/** A message's buttons (a bot's reply) as read-only chips, row by row: operators see what the client was offered. */
function Buttons({ rows }: { rows: NonNullable<MessageDto['buttons']> }) {
  return (
    <Stack gap={4} mt={6} data-testid="message-buttons">
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id and never reorder
        <Group key={i} gap={4} wrap="wrap">
          {row.map((b, j) => (
            <Badge
              // biome-ignore lint/suspicious/noArrayIndexKey: buttons have no id and never reorder
              key={j}
              variant="outline"
              radius="sm"
              tt="none"
              title={'url' in b ? b.url : b.payload}
              rightSection={'url' in b ? <IconExternalLink size={10} aria-hidden /> : undefined}
              style={{ maxWidth: '100%' }}
            >
              <UserText>{b.text}</UserText>
            </Badge>
          ))}
        </Group>
      ))}
    </Stack>
  );
}

/** The delivery status; an Undelivered one names the provider's reason on hover and to screen readers. */
function Delivery({ status, reason }: { status: MessageDto['status']; reason: string | null }) {
  const { t } = useTranslation();
  if (!status) return null;
  const Icon = STATUS_ICON[status];
  const color = status === 'undelivered' ? 'red' : status === 'read' ? 'indigo' : 'dimmed';
  return (
    <Group
      gap={2}
      wrap="nowrap"
      c={color}
      data-testid="delivery"
      data-status={status}
      title={status === 'undelivered' && reason ? reason : undefined}
    >
      <Icon size={14} aria-hidden />
      <Text size="xs" c={color}>
        {t(`chat.delivery.${status}`)}
        {status === 'undelivered' && reason ? <VisuallyHidden>: {reason}</VisuallyHidden> : null}
      </Text>
    </Group>
  );
}

/** The conversation, oldest first; texts are rendered as text (never HTML), internal notes stand apart. */
export function MessageList({ messages }: { messages: MessageDto[] }) {
  const { t, i18n } = useTranslation();
  const end = useRef<HTMLDivElement>(null);
  const count = messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message arrives
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [count]);
  return (
    <Stack gap="sm" p="md" style={{ flex: 1, overflowY: 'auto', background: 'var(--mantine-color-gray-0)' }}>
      {messages.map((m) => {
        const out = m.direction === 'out';
        return (
          <Box
            key={m.id}
            data-testid="message"
            data-internal={m.internal || undefined}
            style={{ alignSelf: out ? 'flex-end' : 'flex-start', maxWidth: '72%' }}
          >
            <Paper
              px="md"
              py="xs"
              radius="lg"
              shadow="none"
              style={{
                background: m.internal
                  ? 'var(--mantine-color-yellow-0)'
                  : out
                    ? 'var(--mantine-color-indigo-0)'
                    : 'white',
                border: m.internal
                  ? '1px dashed var(--mantine-color-yellow-6)'
                  : '1px solid var(--mantine-color-gray-3)',
              }}
            >
              {m.internal && (
                <Badge size="xs" color="yellow" variant="light" leftSection={<IconLock size={10} />} mb={4}>
                  {t('chat.internalNote')}
                </Badge>
              )}
              <Text size="sm" dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <UserText>{m.text}</UserText>
              </Text>
              {m.attachments.map((a) => (
                <Text key={a.url} size="xs" c="indigo" truncate>
                  <UserText>{a.name || a.url}</UserText>
                </Text>
              ))}
              {m.buttons?.length ? <Buttons rows={m.buttons} /> : null}
            </Paper>
            <Group gap={6} mt={2} justify={out ? 'flex-end' : 'flex-start'} wrap="nowrap">
              {m.author && out && (
                <Text size="xs" c="dimmed">
                  <UserText>{m.author.name}</UserText>
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {formatTime(m.createdAt, i18n.language)}
              </Text>
              {m.editedAt && (
                <Text size="xs" c="dimmed" fs="italic" data-testid="edited">
                  {t('chat.edited')}
                </Text>
              )}
              {out && !m.internal && <Delivery status={m.status} reason={m.statusReason} />}
            </Group>
          </Box>
        );
      })}
      <div ref={end} />
    </Stack>
  );
}
