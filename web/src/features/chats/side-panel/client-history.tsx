import { Badge, Group, Modal, Paper, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { SectionLoader } from '../../../shared/ui/full-loader.tsx';
import { UserText } from '../../../shared/ui/user-text.tsx';
import { pathText } from '../../categories/api.ts';
import { useClientChatMessages, useClientChats } from '../list/list-api.ts';

/** A previous dialog opened in place, read-only. */
function EarlierChat({
  clientId,
  chatId,
  onClose,
}: {
  clientId: string;
  chatId: string | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const data = useClientChatMessages(clientId, chatId);
  const chat = data.data?.chat;
  return (
    <Modal
      opened={!!chatId}
      onClose={onClose}
      size="lg"
      title={chat ? `${chat.channel.name} · ${t(`chat.status.${chat.status}`)}` : t('workspace.history')}
    >
      {data.isLoading ? (
        <SectionLoader />
      ) : (
        <Stack gap="xs" data-testid="earlier-chat">
          {(data.data?.items ?? []).map((m) => (
            <Paper
              key={m.id}
              p="xs"
              withBorder
              bg={m.internal ? 'yellow.0' : m.direction === 'out' ? 'indigo.0' : undefined}
              ml={m.direction === 'out' ? 'xl' : 0}
              mr={m.direction === 'in' ? 'xl' : 0}
            >
              <Text size="xs" c="dimmed">
                {m.author?.name ?? (m.direction === 'in' ? chat?.client.name : '')} ·{' '}
                {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(
                  new Date(m.createdAt),
                )}
              </Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                <UserText>{m.text}</UserText>
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Modal>
  );
}

/** The client's dialogs on every channel, newest first; one opens in place. */
export function ClientHistory({ clientId, currentChatId }: { clientId: string; currentChatId: string }) {
  const { t, i18n } = useTranslation();
  const chats = useClientChats(clientId, true);
  const [open, setOpen] = useState<string | null>(null);
  const items = (chats.data?.items ?? []).filter((c) => c.id !== currentChatId);
  if (chats.isLoading)
    return (
      <Text size="xs" c="dimmed">
        {t('common.loading')}
      </Text>
    );
  return (
    <>
      {items.length === 0 ? (
        <Text size="xs" c="dimmed">
          {t('workspace.noHistory')}
        </Text>
      ) : (
        <Stack gap={4} data-testid="client-history">
          {items.map((c) => (
            <UnstyledButton
              key={c.id}
              onClick={() => setOpen(c.id)}
              p={6}
              style={{ borderRadius: 6, border: '1px solid var(--mantine-color-gray-3)' }}
            >
              {/* Named by what it shows, after what it does (axe: the visible text is part of the name). */}
              <VisuallyHidden>{t('workspace.openEarlier', { channel: c.channel.name })}</VisuallyHidden>
              <Group justify="space-between" gap={4} wrap="nowrap">
                <Badge size="xs" variant="light" color="gray">
                  <UserText>{c.channel.name}</UserText>
                </Badge>
                <Text size="xs" c="dimmed">
                  {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short' }).format(
                    new Date(c.createdAt),
                  )}
                </Text>
              </Group>
              <Text size="xs" truncate>
                <UserText>{c.lastMessage?.text ?? ''}</UserText>
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {t(`chat.status.${c.status}`)}
                {c.operator ? ` · ${c.operator.name}` : ''}
                {c.category ? ` · ${pathText(c.category.path)}` : ''}
              </Text>
            </UnstyledButton>
          ))}
        </Stack>
      )}
      <EarlierChat clientId={clientId} chatId={open} onClose={() => setOpen(null)} />
    </>
  );
}
