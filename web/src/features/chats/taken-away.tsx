import { Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ChatTakenAwayPayload } from '@smartconnect/contracts';
import { IconUserBolt } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { i18n, useTranslation } from '../../shared/i18n/index.ts';

// The chats taken from this operator in this tab (issue 36): the open conversation keeps a line saying so.
const taken = new Map<string, ChatTakenAwayPayload>();
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => void listeners.delete(l);
};

const textOf = (p: ChatTakenAwayPayload) =>
  i18n.t(p.kind === 'takeover' ? 'conversation.takenAwayTakeover' : 'conversation.takenAwayTransfer', {
    name: isolate(p.by.name),
    client: isolate(p.client),
  });

/** `chat.takenAway` (only the operator it was taken from gets it): a toast, and the chat's line. */
export function chatTakenAway(p: ChatTakenAwayPayload): void {
  taken.set(p.chatId, p);
  for (const l of listeners) l();
  notifications.show({ id: `taken-${p.chatId}`, color: 'orange', message: textOf(p), autoClose: 8000 });
}

/** The system line of a chat taken from the viewer, at the end of the conversation. */
export function TakenAwayLine({ chatId }: { chatId: string }) {
  useTranslation();
  const p = useSyncExternalStore(subscribe, () => taken.get(chatId));
  if (!p) return null;
  return (
    <Group justify="center" gap={6} py={6} px="md" role="status" data-testid="taken-away">
      <IconUserBolt size={16} aria-hidden color="var(--mantine-color-orange-8)" />
      <Text size="sm" c="orange.9">
        {textOf(p)}
      </Text>
    </Group>
  );
}
