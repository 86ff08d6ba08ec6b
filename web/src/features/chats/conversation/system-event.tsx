import { Group, Text } from '@mantine/core';
import type { ChatDto, ChatHistoryDto, Page, TeamDto, UserDto } from '@smartconnect/contracts';
import { RATING_VALUES } from '@smartconnect/contracts';
import {
  IconArrowsExchange,
  IconCircleCheck,
  IconHandGrab,
  IconInfoCircle,
  IconRoute,
  IconStar,
  IconTag,
  IconUserBolt,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { get } from '../../../shared/api/client.ts';
import { isolate } from '../../../shared/bidi.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { dateFormat } from '../../../shared/intl.ts';
import { useCurrentUser } from '../../../shared/session.tsx';
import { pathText } from '../../categories/api.ts';
import { teamKeys } from '../../teams/keys.ts';
import { userKeys } from '../../users/keys.ts';

const ICONS = {
  assign: IconHandGrab,
  transfer: IconArrowsExchange,
  takeover: IconUserBolt,
  rule: IconRoute,
  close: IconCircleCheck,
  auto_close: IconCircleCheck,
  inactivity_close: IconCircleCheck,
  category_set: IconTag,
  category_removed: IconTag,
  rating_requested: IconStar,
  rated: IconStar,
} as Record<string, typeof IconInfoCircle>;

/**
 * Names for the ids of history events: the user, team and category lists the caller may read (the ones the transfer
 * dialog loads), and the open chat itself; an id none of them names reads as 'an operator' / 'a team'.
 */
export function useHistoryNames(chat: ChatDto | undefined) {
  const me = useCurrentUser();
  const users = useQuery({
    queryKey: userKeys.list({ search: '', team: null, limit: 500 }),
    queryFn: () => get<Page<UserDto>>('/api/users?limit=500'),
    meta: { silent: true },
    retry: false,
    staleTime: 60_000,
  });
  const teams = useQuery({
    queryKey: teamKeys.list(''),
    queryFn: async () => {
      const e = await get<TeamDto[] | Page<TeamDto>>('/api/teams');
      return Array.isArray(e) ? e : e.items;
    },
    meta: { silent: true },
    retry: false,
    staleTime: 60_000,
  });
  return {
    user: (id: string | null) =>
      id === me.id
        ? me.name
        : chat?.operator && id === chat.operator.id
          ? chat.operator.name
          : users.data?.items.find((u) => u.id === id)?.name,
    team: (id: string | null) =>
      chat && id === chat.team.id ? chat.team.name : teams.data?.find((x) => x.id === id)?.name,
    /** An event names its category by the path it had then; older events by the chat's current one. */
    category: (event: ChatHistoryDto) =>
      event.categoryPath
        ? pathText(event.categoryPath)
        : chat?.category && event.categoryId === chat.category.id
          ? pathText(chat.category.path)
          : undefined,
  };
}

export type HistoryNames = ReturnType<typeof useHistoryNames>;

/** One event of the chat's history in the timeline: assigned, transferred, taken over, closed, category set. */
export function SystemEvent({ event, names }: { event: ChatHistoryDto; names: HistoryNames }) {
  const { t, i18n } = useTranslation();
  const someone = t('conversation.someone');
  const user = (id: string | null) => isolate(names.user(id) ?? someone);
  const Icon = ICONS[event.kind] ?? IconInfoCircle;
  const value = event.score ? t(`rating.values.${RATING_VALUES[event.score - 1]}`) : '';
  const text =
    event.kind === 'rating_requested' && !event.actorId
      ? t('conversation.events.rating_requested_auto')
      : event.kind === 'rated'
        ? t('conversation.events.rated', { value, score: event.score })
        : event.kind === 'transfer' && (event.toBotId || event.botName)
          ? t('botRuntime.transferredToBot', { bot: isolate(event.botName ?? '—') })
          : event.kind === 'close' && event.ruleName
            ? t('conversation.events.closeRule', { rule: isolate(event.ruleName) })
            : event.kind === 'transfer' && !event.toUserId
              ? t('conversation.events.transferTeam', {
                  team: isolate(names.team(event.toTeamId) ?? t('conversation.someTeam')),
                })
              : t(`conversation.events.${event.kind as 'assign'}`, {
                  to: user(event.toUserId),
                  from: user(event.fromUserId),
                  by: user(event.actorId),
                  category: isolate(names.category(event) ?? '—'),
                  rule: isolate(event.ruleName ?? '—'),
                });
  const time = dateFormat(i18n.language, { timeStyle: 'short' }).format(new Date(event.createdAt));
  return (
    <Group
      gap={6}
      justify="center"
      wrap="nowrap"
      data-testid="system-event"
      data-kind={event.kind}
      role="note"
      style={{ alignSelf: 'center', maxWidth: '90%' }}
    >
      <Icon size={14} aria-hidden color="var(--mantine-color-gray-7)" />
      <Text size="xs" c="gray.7" ta="center">
        {text} · {time}
      </Text>
    </Group>
  );
}
