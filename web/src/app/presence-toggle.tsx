import { Alert, Button, Group, SegmentedControl, Text } from '@mantine/core';
import type { CurrentUserDto, Presence, PresenceDto } from '@smartconnect/contracts';
import { IconMoonStars } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { patch } from '../shared/api/client.ts';
import { useTranslation } from '../shared/i18n/index.ts';
import { ME_KEY, useCurrentUser } from '../shared/session.tsx';

/** The current user's presence and its change (optimistic; given back when the server refuses). */
function usePresence() {
  const client = useQueryClient();
  const presence = useCurrentUser().presence;
  const setPresence = (status: Presence) =>
    client.setQueryData<CurrentUserDto>(ME_KEY, (u) => (u ? { ...u, presence: status } : u));
  const change = useMutation({
    mutationFn: (status: Presence) => patch<PresenceDto>('/api/presence', { status }),
    onMutate: (status) => {
      const before = presence;
      setPresence(status);
      return { before };
    },
    onSuccess: (dto) => setPresence(dto.status),
    // The toast (allLicencesTakenException...) comes from the global action error handling.
    onError: (_err, _status, ctx) => ctx && setPresence(ctx.before),
  });
  return { presence, change };
}

/**
 * The 'In work' / 'Break' status toggle (§4 operator presence). It shows the presence the server knows
 * (GET auth/user, then `presence.changed` events); offline highlights neither.
 */
export function PresenceToggle() {
  const { t } = useTranslation();
  const { presence, change } = usePresence();
  return (
    <Group gap="xs" wrap="nowrap">
      {presence === 'offline' && (
        <Text size="xs" c="dimmed" data-testid="presence-offline">
          {t('menu.offline')}
        </Text>
      )}
      <SegmentedControl
        size="xs"
        radius="xl"
        aria-label={t('menu.workStatus')}
        data-testid="presence-toggle"
        data-presence={presence}
        value={presence === 'offline' ? '' : presence}
        color={presence === 'online' ? 'teal' : presence === 'break' ? 'orange' : 'gray'}
        disabled={change.isPending}
        onChange={(v) => change.mutate(v as Presence)}
        data={[
          { value: 'online', label: t('menu.inWork') },
          { value: 'break', label: t('menu.break') },
        ]}
      />
    </Group>
  );
}

/**
 * A user who receives chats (AUTHORITY_CHAT_DISTRIBUTION) but is not in work is told, plainly, that no chat will come
 * to them, with the button that starts work.
 */
export function PresenceBanner() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const { presence, change } = usePresence();
  if (presence === 'online' || !me.rights.includes('AUTHORITY_CHAT_DISTRIBUTION')) return null;
  return (
    <Alert
      role="status"
      data-testid="presence-banner"
      color="yellow"
      variant="light"
      icon={<IconMoonStars size={18} />}
      mb="md"
      styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500}>
          {presence === 'break' ? t('attention.onBreak') : t('attention.notInWork')}
        </Text>
        <Button size="xs" color="teal" loading={change.isPending} onClick={() => change.mutate('online')}>
          {t('attention.startWork')}
        </Button>
      </Group>
    </Alert>
  );
}
