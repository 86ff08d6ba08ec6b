import { Badge, Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { ChatDto, ChatRatingStateDto } from '@smartconnect/contracts';
import { IconStar } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useAccess, useCurrentUser } from '../../shared/session.tsx';
import { chatKeys } from './keys.ts';

/**
 * The top bar's service rating of the chat's current session: the client's score once given, 'Rating requested'
 * while waiting, and for the chat's operator an 'Ask for a rating' action when the channel allows a request before
 * the end (once per session: the server answers 409 after).
 */
export function ChatRating({ chat }: { chat: ChatDto }) {
  const { t } = useTranslation();
  const access = useAccess();
  const me = useCurrentUser();
  const client = useQueryClient();
  const on = access.has('OPTION_QUALITY_ASSESSMENT');
  const state = useQuery({
    queryKey: chatKeys.rating(chat),
    queryFn: () => get<ChatRatingStateDto>(`/api/chats/${chat.id}/rating-request`),
    enabled: on,
    meta: { silent: true },
    retry: false,
  });
  const ask = useMutation({
    mutationFn: () => post<ChatRatingStateDto>(`/api/chats/${chat.id}/rating-request`),
    onSuccess: (s) => {
      client.setQueryData(chatKeys.rating(chat), s);
      notifications.show({ color: 'teal', message: t('rating.asked') });
    },
  });
  const s = state.data;
  if (!on || !s) return null;
  if (s.score && s.value)
    return (
      <Badge
        color="yellow.9"
        variant="light"
        leftSection={<IconStar size={12} aria-hidden />}
        data-testid="chat-rating"
        style={{ flexShrink: 0 }}
      >
        {t('rating.badge', { value: t(`rating.values.${s.value}`), score: s.score })}
      </Badge>
    );
  if (s.requestedAt)
    return (
      <Badge color="gray" variant="light" data-testid="chat-rating" style={{ flexShrink: 0 }}>
        {t('rating.requested')}
      </Badge>
    );
  if (!s.canAsk || chat.status !== 'in_progress' || chat.operator?.id !== me.id) return null;
  return (
    <Button
      size="xs"
      variant="default"
      leftSection={<IconStar size={16} aria-hidden />}
      loading={ask.isPending}
      onClick={() => ask.mutate()}
      data-testid="ask-rating"
    >
      {t('rating.ask')}
    </Button>
  );
}
