import { Button, Group, Modal, Radio, Select, Stack } from '@mantine/core';
import type { ChatBotRefDto, ChatDto, Page, TeamDto, TransferTarget, UserDto } from '@smartconnect/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { botKeys } from '../chat-bots/keys.ts';
import { teamKeys } from '../teams/keys.ts';
import { userKeys } from '../users/keys.ts';
import { transferChat } from './api.ts';
import { useChatChanged } from './use-chat-cache.ts';

type Kind = 'operator' | 'team' | 'last_operator' | 'personal_manager' | 'chat_bot';

/**
 * Transfer to an operator, a team, the client's last operator or personal manager, or (with OPTION_CHAT_BOT) a
 * published chat bot ('cannot transfer' toast).
 */
export function TransferDialog({
  chat,
  opened,
  onClose,
  onTransferred,
}: {
  chat: ChatDto;
  opened: boolean;
  onClose: () => void;
  onTransferred: () => void;
}) {
  const { t } = useTranslation();
  const changed = useChatChanged();
  const [kind, setKind] = useState<Kind>('operator');
  const [target, setTarget] = useState<string | null>(null);
  const botsOn = useAccess().has('OPTION_CHAT_BOT');
  const bots = useQuery({
    queryKey: botKeys.published,
    queryFn: async () => (await get<Page<ChatBotRefDto>>('/api/chat-bots/published')).items,
    enabled: opened && kind === 'chat_bot',
    staleTime: 0,
  });
  const kinds: Kind[] = [
    'operator',
    'team',
    'last_operator',
    'personal_manager',
    ...(botsOn ? ['chat_bot' as const] : []),
  ];
  const users = useQuery({
    queryKey: userKeys.list({ search: '', team: null, limit: 500 }),
    queryFn: () => get<Page<UserDto>>('/api/users?limit=500'),
    enabled: opened && kind === 'operator',
    // Presence changes by the minute: read afresh when the dialog opens (the timeline's names share this query).
    staleTime: 0,
    // Everyone who could take it, the chat's team first and those In work on top; only an online operator can
    // receive a chat (§4, checked again by the server), so the others are shown with their state and cannot be chosen.
    select: (p) => {
      const inTeam = (u: UserDto) => u.teams.some((x) => x.id === chat.team.id);
      const rank = (u: UserDto) => (u.presence === 'online' ? 0 : 2) + (inTeam(u) ? 0 : 1);
      return p.items
        .filter((u) => u.active && u.id !== chat.operator?.id)
        .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
    },
  });
  const noneOnline = !!users.data && !users.data.some((u) => u.presence === 'online');
  const teams = useQuery({
    queryKey: teamKeys.list(''),
    queryFn: async () => {
      const e = await get<TeamDto[] | Page<TeamDto>>('/api/teams');
      return Array.isArray(e) ? e : e.items;
    },
    enabled: opened && kind === 'team',
  });
  const body = (): TransferTarget | null =>
    kind === 'operator'
      ? target
        ? { operatorId: target }
        : null
      : kind === 'team'
        ? target
          ? { teamId: target }
          : null
        : kind === 'chat_bot'
          ? target
            ? { botId: target }
            : null
          : { target: kind };
  const transfer = useMutation({
    mutationFn: (b: TransferTarget) => transferChat(chat.id, b),
    onSuccess: (c) => {
      changed(c);
      notifySuccess(t('chat.transferred'));
      onClose();
      onTransferred();
    },
  });
  const b = body();
  return (
    <Modal opened={opened} onClose={onClose} title={t('chat.transferTitle')}>
      <Stack>
        <Radio.Group
          value={kind}
          onChange={(v) => {
            setKind(v as Kind);
            setTarget(null);
          }}
        >
          <Stack gap="xs">
            {kinds.map((k) => (
              <Radio
                key={k}
                value={k}
                label={k === 'chat_bot' ? t('botRuntime.transferToBot') : t(`chat.transferTo.${k}`)}
              />
            ))}
          </Stack>
        </Radio.Group>
        {kind === 'operator' && (
          <Select
            label={t('chat.chooseOperator')}
            searchable
            data={(users.data ?? []).map((u) => ({
              value: u.id,
              label:
                u.presence === 'online'
                  ? u.name
                  : t('chat.operatorAway', { name: u.name, state: t(`chat.presence.${u.presence}`) }),
              disabled: u.presence !== 'online',
            }))}
            value={target}
            onChange={setTarget}
            description={noneOnline ? t('chat.noOperatorsOnline') : undefined}
            nothingFoundMessage={t('chat.nothingFound')}
            data-testid="transfer-operator"
          />
        )}
        {kind === 'team' && (
          <Select
            label={t('chat.chooseTeam')}
            searchable
            data={(teams.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            value={target}
            onChange={setTarget}
            nothingFoundMessage={t('chat.nothingFound')}
          />
        )}
        {kind === 'chat_bot' && (
          <Select
            label={t('botRuntime.chooseBot')}
            searchable
            data={(bots.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
            value={target}
            onChange={setTarget}
            placeholder={bots.data && !bots.data.length ? t('botRuntime.noPublishedBots') : undefined}
            nothingFoundMessage={t('chat.nothingFound')}
            data-testid="transfer-bot"
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!b} loading={transfer.isPending} onClick={() => b && transfer.mutate(b)}>
            {t('chat.transfer')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
