import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ClientProfileDto } from '@smartconnect/contracts';
import { IconArrowMerge, IconBan, IconPencil } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isolate } from '../../shared/bidi.ts';
import { type TFunction, useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { useAccess } from '../../shared/session.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { blockClient, unblockClient, useProfile, useRefreshClients } from './api.ts';
import { ClientComments } from './comments.tsx';
import { MergeDialog } from './merge-dialog.tsx';
import { ProfileDrawer } from './profile-drawer.tsx';
import { StatusBadge } from './status-badge.tsx';

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xs" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** One line of the profile's history: who merged, blocked or unblocked. */
function historyText(h: ClientProfileDto['history'][number], t: TFunction) {
  const names = ((h.data.sources as { name: string }[] | undefined) ?? [])
    .map((s) => isolate(s.name))
    .join(', ');
  return t(`clientProfiles.historyKind.${h.kind}`, { actor: isolate(h.actor?.name ?? '—'), names });
}

/**
 * The client card (§3 Customer profile) for the chat side panel and the client page: status, session status,
 * phones and e-mails, tags, companies, personal manager, fields, spam and blacklist marks, comments, history; with
 * AUTHORITY_PROFILE_UPDATE the edit side page, block/unblock and the contact-merge dialog.
 */
export function ProfileCard({ clientId }: { clientId: string }) {
  const { t } = useTranslation();
  const { can, has } = useAccess();
  const profile = useProfile(clientId);
  const refresh = useRefreshClients();
  const [editing, setEditing] = useState(false);
  const [merging, setMerging] = useState(false);
  const block = useMutation({
    mutationFn: (blocked: boolean) => (blocked ? unblockClient(clientId) : blockClient(clientId)),
    onSuccess: async (p) => {
      notifySuccess(t(p.blocked ? 'clientProfiles.blockedToast' : 'clientProfiles.unblockedToast'));
      await refresh(clientId);
    },
  });
  const p = profile.data;
  if (!p || !('tags' in p)) return null;
  const editable = can('AUTHORITY_PROFILE_UPDATE');
  const confirmBlock = () =>
    modals.openConfirmModal({
      title: t('clientProfiles.blockTitle'),
      children: <Text size="sm">{t('clientProfiles.blockText')}</Text>,
      labels: { confirm: t('clientProfiles.block'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'block-confirm' } as Record<`data-${string}`, string> & {
        color: string;
      },
      onConfirm: () => block.mutate(false),
    });
  const phones = p.details.filter((d) => d.kind === 'phone');
  const emails = p.details.filter((d) => d.kind === 'email');
  return (
    <Stack gap="xs" data-testid="profile-card">
      <Group gap={6}>
        <StatusBadge status={p.status} />
        {p.sessionStatus && (
          <Badge size="sm" variant="light" color="gray" data-testid="session-status">
            {t(`clientProfiles.sessionStatuses.${p.sessionStatus}`)}
          </Badge>
        )}
        {p.spam && (
          <Badge size="sm" variant="light" color="orange">
            {t('clientProfiles.spamMark')}
          </Badge>
        )}
        {p.advertisingOptedOutAt && (
          <Badge size="sm" variant="light" color="gray" data-testid="advertising-off">
            {t('clientProfiles.advertisingOff')}
          </Badge>
        )}
        {p.blocked && (
          <Badge size="sm" variant="filled" color="red.8" data-testid="blocked-badge">
            {t('clientProfiles.blocked')}
          </Badge>
        )}
      </Group>
      {phones.length > 0 && (
        <Line label={t('clientProfiles.phones')}>
          <UserText>{phones.map((d) => d.value).join(', ')}</UserText>
        </Line>
      )}
      {emails.length > 0 && (
        <Line label={t('clientProfiles.emails')}>
          <UserText>{emails.map((d) => d.value).join(', ')}</UserText>
        </Line>
      )}
      {p.tags.length > 0 && (
        <Line label={t('clientProfiles.tags')}>
          <Group gap={4} data-testid="client-tags">
            {p.tags.map((tag) => (
              <Badge key={tag} size="xs" variant="outline" color="gray.8" tt="none">
                <UserText>{tag}</UserText>
              </Badge>
            ))}
          </Group>
        </Line>
      )}
      {p.companies.length > 0 && (
        <Line label={t('clientProfiles.companies')}>
          <UserText>{p.companies.map((c) => c.name).join(', ')}</UserText>
        </Line>
      )}
      {p.manager && (
        <Line label={t('clientProfiles.manager')}>
          <UserText>{p.manager.name}</UserText>
        </Line>
      )}
      {p.fields.map((f) => (
        <Line key={f.name} label={f.name}>
          <UserText>{f.value || '—'}</UserText>
        </Line>
      ))}
      {editable && (
        <Group gap={6}>
          {has('OPTION_PROFILE') && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPencil size={14} />}
              onClick={() => setEditing(true)}
              data-testid="edit-profile"
            >
              {t('clientProfiles.edit')}
            </Button>
          )}
          <Button
            size="xs"
            variant="light"
            color={p.blocked ? 'gray' : 'red'}
            leftSection={<IconBan size={14} />}
            loading={block.isPending}
            onClick={() => (p.blocked ? block.mutate(true) : confirmBlock())}
            data-testid="block-client"
          >
            {t(p.blocked ? 'clientProfiles.unblock' : 'clientProfiles.block')}
          </Button>
          {has('OPTION_PROFILE') && (
            <Button
              size="xs"
              variant="light"
              color="gray"
              leftSection={<IconArrowMerge size={14} />}
              onClick={() => setMerging(true)}
              data-testid="merge-client"
            >
              {t('clientProfiles.merge')}
            </Button>
          )}
        </Group>
      )}
      {has('OPTION_COMMENT') && (
        <Stack gap={4} component="section" aria-label={t('clientProfiles.comments')}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {t('clientProfiles.comments')}
          </Text>
          <ClientComments profile={p} canAdd={editable} />
        </Stack>
      )}
      {p.history.length > 0 && (
        <Stack gap={2} component="section" aria-label={t('clientProfiles.history')}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase">
            {t('clientProfiles.history')}
          </Text>
          {p.history.map((h) => (
            <Text key={h.id} size="xs" c="dimmed">
              {historyText(h, t)}
            </Text>
          ))}
        </Stack>
      )}
      <ProfileDrawer profile={p} opened={editing} onClose={() => setEditing(false)} />
      <MergeDialog target={{ id: p.id, name: p.name }} opened={merging} onClose={() => setMerging(false)} />
    </Stack>
  );
}
