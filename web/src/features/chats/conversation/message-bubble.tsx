import { ActionIcon, Badge, Box, Button, Group, Paper, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { MESSAGE_TEXT_MAX, type MessageDto } from '@smartconnect/contracts';
import {
  IconCheck,
  IconChecks,
  IconClock,
  IconExternalLink,
  IconLock,
  IconPencil,
  IconRobot,
  IconX,
} from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { memo, useState } from 'react';
import { patch } from '../../../shared/api/client.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { dateFormat } from '../../../shared/intl.ts';
import { UserText } from '../../../shared/ui/user-text.tsx';
import { useUpsertMessage } from '../use-chat-cache.ts';
import { Attachments } from './attachments.tsx';
import { deliveryReason } from './delivery-reason.ts';
import { MessageText } from './message-text.tsx';

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

/** The delivery tick; Undelivered names the provider's reason on hover and on keyboard focus. */
export function Delivery({ status, reason }: { status: MessageDto['status']; reason: string | null }) {
  const { t } = useTranslation();
  if (!status) return null;
  const Icon = STATUS_ICON[status];
  const color = status === 'undelivered' ? 'red.8' : status === 'read' ? 'indigo.7' : 'gray.7';
  const label = (
    <Group gap={2} wrap="nowrap" c={color} data-testid="delivery" data-status={status}>
      <Icon size={14} aria-hidden />
      <Text size="xs" c={color}>
        {t(`chat.delivery.${status}`)}
      </Text>
    </Group>
  );
  if (status !== 'undelivered') return label;
  const why = deliveryReason(reason, t);
  return (
    <Tooltip label={why} multiline maw={280} events={{ hover: true, focus: true, touch: true }}>
      {/* Focusable so keyboard users get the reason too; screen readers read it as the label. */}
      <Box tabIndex={0} aria-label={why} data-testid="delivery-reason" style={{ cursor: 'help' }}>
        {label}
      </Box>
    </Tooltip>
  );
}

/** Edits one of the operator's own messages in place: Enter saves, Shift+Enter adds a line, Esc cancels. */
function EditBox({ message, onDone }: { message: MessageDto; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(message.text);
  const upsert = useUpsertMessage();
  const save = useMutation({
    mutationFn: () =>
      patch<MessageDto>(`/api/chats/${message.chatId}/messages/${message.id}`, { text: text.trim() }),
    onSuccess: (m) => {
      upsert(m, { replace: true });
      onDone();
    },
  });
  const submit = () => {
    if (!text.trim() || save.isPending) return;
    if (text.trim() === message.text) onDone();
    else save.mutate();
  };
  return (
    <Stack gap={6} data-testid="edit-box" data-editing>
      <Textarea
        autosize
        minRows={1}
        maxRows={8}
        maxLength={MESSAGE_TEXT_MAX}
        aria-label={t('conversation.editLabel')}
        description={t('conversation.editHint')}
        value={text}
        autoFocus
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          }
        }}
      />
      <Group gap="xs" justify="flex-end">
        <Button size="xs" variant="default" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button size="xs" loading={save.isPending} disabled={!text.trim()} onClick={submit}>
          {t('common.save')}
        </Button>
      </Group>
    </Stack>
  );
}

export function formatClock(iso: string, locale: string) {
  return dateFormat(locale, { timeStyle: 'short' }).format(new Date(iso));
}

/**
 * One message: the client's on the left, ours on the right, internal notes yellow with a lock and a dashed border;
 * texts are text (never HTML); 'edited' mark; the operator's own messages have an edit action.
 */
function Bubble({
  message: m,
  mine,
  editable,
  clientEdits = true,
}: {
  message: MessageDto;
  mine: boolean;
  editable: boolean;
  /** The channel can change a message the client already has (WhatsApp cannot): else only notes are editable. */
  clientEdits?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [editing, setEditing] = useState(false);
  const out = m.direction === 'out';
  const canEdit =
    editable && mine && out && m.kind !== 'mailing' && m.text.trim() !== '' && (m.internal || clientEdits);
  return (
    <Box
      data-testid="message"
      data-id={m.id}
      data-internal={m.internal || undefined}
      data-direction={m.direction}
      className="sc-message"
      style={{ alignSelf: out ? 'flex-end' : 'flex-start', maxWidth: 'min(72%, 640px)', minWidth: 0 }}
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
            ? '1px dashed var(--mantine-color-yellow-8)'
            : '1px solid var(--mantine-color-gray-3)',
        }}
      >
        {m.internal && (
          <Badge
            size="xs"
            color="yellow.9"
            variant="light"
            leftSection={<IconLock size={10} aria-hidden />}
            mb={4}
          >
            {t('chat.internalNote')}
          </Badge>
        )}
        {editing ? (
          <EditBox message={m} onDone={() => setEditing(false)} />
        ) : (
          m.text && <MessageText text={m.text} fold={!out && !m.internal} />
        )}
        <Attachments items={m.attachments} />
        {m.buttons?.length ? <Buttons rows={m.buttons} /> : null}
      </Paper>
      <Group gap={6} mt={2} justify={out ? 'flex-end' : 'flex-start'} wrap="nowrap">
        {m.author && out && (
          <Text size="xs" c="gray.7" truncate>
            <UserText>{m.author.name}</UserText>
          </Text>
        )}
        {m.bot && out && (
          <Badge
            size="xs"
            variant="light"
            color="grape"
            leftSection={<IconRobot size={10} aria-hidden />}
            data-testid="bot-badge"
            title={m.bot.name}
          >
            {t('botRuntime.badge')}
          </Badge>
        )}
        <Text size="xs" c="gray.7" component="time" dateTime={m.createdAt}>
          {formatClock(m.createdAt, i18n.language)}
        </Text>
        {m.editedAt && (
          <Text size="xs" c="gray.7" fs="italic" data-testid="edited">
            {t('chat.edited')}
          </Text>
        )}
        {out && !m.internal && <Delivery status={m.status} reason={m.statusReason} />}
        {canEdit && !editing && (
          <Tooltip label={t('conversation.editMessage')}>
            <ActionIcon
              size="sm"
              variant="subtle"
              color="gray.7"
              aria-label={t('conversation.editMessage')}
              data-testid="edit-message"
              onClick={() => setEditing(true)}
            >
              <IconPencil size={14} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Box>
  );
}
/** Memoised: a new message in a long conversation draws that message, not every other one again. */
export const MessageBubble = memo(Bubble);
