import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ChatDto } from '@smartconnect/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { chatKeys } from '../features/chats/keys.ts';
import { isolate } from '../shared/bidi.ts';
import { i18n } from '../shared/i18n/index.ts';
import { UserText } from '../shared/ui/user-text.tsx';
import type { Attention } from './attention.ts';

const PREVIEW = 140;
const preview = (text: string | null) =>
  text && text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;

/** The chat center with this chat open, in the list where it now is. */
export function chatPath(client: QueryClient, a: Attention): string {
  const status = client.getQueryData<ChatDto>(chatKeys.chat(a.chatId))?.status;
  const filter = a.kind === 'newChat' || status === 'waiting' ? 'waiting' : 'assigned';
  return `/admin/chats?filter=${filter}&chat=${encodeURIComponent(a.chatId)}`;
}

const titleOf = (a: Attention) => i18n.t(`attention.${a.kind}`);

/** The in-app toast: who wrote what, and a button to open the chat (one toast per chat, refreshed). */
export function showAttentionToast(a: Attention, open: () => void): void {
  notifications.show({
    id: `attention-${a.chatId}`,
    color: a.kind === 'message' ? 'blue' : 'teal',
    title: titleOf(a),
    autoClose: 6000,
    message: (
      <Stack gap={6} data-testid="attention-toast">
        <Text size="sm" lineClamp={3}>
          {a.client && (
            <Text span fw={600}>
              <UserText>{a.client}</UserText>
              {a.text ? ': ' : ''}
            </Text>
          )}
          <UserText>{preview(a.text)}</UserText>
        </Text>
        <Button
          size="compact-xs"
          variant="light"
          w="fit-content"
          onClick={() => {
            notifications.hide(`attention-${a.chatId}`);
            open();
          }}
        >
          {i18n.t('attention.open')}
        </Button>
      </Stack>
    ),
  });
}

/** The system notification of a hidden tab (when the operator allowed them): a click brings the chat to the front. */
export function showDesktopNotification(a: Attention, open: () => void): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const body = [a.client ? isolate(a.client) : '', preview(a.text) ?? ''].filter(Boolean).join(': ');
  const n = new Notification(titleOf(a), { body, tag: `sc-${a.chatId}`, icon: '/favicon.svg' });
  n.onclick = () => {
    window.focus();
    open();
    n.close();
  };
}
