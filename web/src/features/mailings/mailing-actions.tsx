import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { MailingDto } from '@smartconnect/contracts';
import {
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlayerStop,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { deleteMailing, type MailingAction, runMailingAction } from './api.ts';
import { mailingKeys } from './keys.ts';

/**
 * What can be done to a mailing in its status: a draft or scheduled one is edited, started or deleted; one being
 * sent is paused or cancelled, a paused one resumed or cancelled; a finished or cancelled one only deleted.
 * Cancelling and deleting ask first.
 */
export function MailingActions({ mailing: m }: { mailing: MailingDto }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const run = useMutation({
    mutationFn: (action: MailingAction) => runMailingAction(m.id, action),
    onSuccess: async (saved, action) => {
      notifySuccess(t(`mailings.done.${action}`));
      client.setQueryData(mailingKeys.one(saved.id), saved);
      await client.invalidateQueries({ queryKey: mailingKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteMailing(m.id),
    onSuccess: async () => {
      notifySuccess(t('mailings.deleted'));
      client.removeQueries({ queryKey: mailingKeys.one(m.id) });
      await client.invalidateQueries({ queryKey: mailingKeys.all });
      navigate('/admin/mailings');
    },
  });
  const confirm = (kind: 'cancel' | 'delete', onConfirm: () => void) =>
    modals.openConfirmModal({
      title: t(`mailings.confirm.${kind}Title`),
      children: <Text size="sm">{t(`mailings.confirm.${kind}Text`, { name: isolate(m.name) })}</Text>,
      labels: { confirm: t(`mailings.confirm.${kind}`), cancel: t('mailings.confirm.keep') },
      confirmProps: { color: 'red', 'data-testid': 'confirm' } as never,
      onConfirm,
    });
  const busy = run.isPending || remove.isPending;
  const editable = m.status === 'draft' || m.status === 'scheduled';
  const button = (action: MailingAction, icon: React.ReactNode, variant = 'light', color?: string) => (
    <Button
      variant={variant}
      color={color}
      leftSection={icon}
      loading={run.isPending && run.variables === action}
      disabled={busy}
      onClick={() => (action === 'cancel' ? confirm('cancel', () => run.mutate(action)) : run.mutate(action))}
      data-testid={`mailing-${action}`}
    >
      {t(`mailings.action.${action}`)}
    </Button>
  );
  return (
    <Group gap="sm">
      {m.status === 'draft' && button('start', <IconSend size={16} aria-hidden />, 'filled')}
      {m.status === 'sending' && button('pause', <IconPlayerPause size={16} aria-hidden />)}
      {m.status === 'paused' && button('resume', <IconPlayerPlay size={16} aria-hidden />, 'filled')}
      {editable && (
        <Button
          variant="default"
          component={Link}
          to={`/admin/mailings/${m.id}/edit`}
          leftSection={<IconPencil size={16} aria-hidden />}
          data-testid="mailing-edit"
        >
          {t('common.edit')}
        </Button>
      )}
      {['scheduled', 'sending', 'paused'].includes(m.status) &&
        button('cancel', <IconPlayerStop size={16} aria-hidden />, 'light', 'red')}
      {!['sending', 'paused'].includes(m.status) && (
        <Button
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          loading={remove.isPending}
          disabled={busy}
          onClick={() => confirm('delete', () => remove.mutate())}
          data-testid="mailing-delete"
        >
          {t('common.delete')}
        </Button>
      )}
    </Group>
  );
}
