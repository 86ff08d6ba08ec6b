import { Badge, Group, Stack, Switch, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { WebhookEndpointDto, WebhookEndpointSecretDto } from '@smartconnect/contracts';
import { IconKey, IconPencil, IconSend, IconTimeline, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isolate } from '../../../shared/bidi.ts';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { dateFormat } from '../../../shared/intl.ts';
import { notifyMessage, notifySuccess } from '../../../shared/notify.ts';
import { EmptyState } from '../../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../../shared/ui/list-table.tsx';
import { deleteEndpoint, rotateSecret, sendTestEvent, updateEndpoint, useWebhookEndpoints } from './api.ts';
import { webhookKeys } from './keys.ts';

type Props = {
  onEdit: (endpoint: WebhookEndpointDto) => void;
  onLog: (endpoint: WebhookEndpointDto) => void;
  onSecret: (shown: WebhookEndpointSecretDto) => void;
};

/** The organisation's endpoints: state (on, off, failing), events, and each one's actions. */
export function EndpointList({ onEdit, onLog, onSecret }: Props) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const list = useWebhookEndpoints();
  const when = dateFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const refresh = () => client.invalidateQueries({ queryKey: webhookKeys.all });
  const toggle = useMutation({
    mutationFn: (e: WebhookEndpointDto) => updateEndpoint(e.id, { enabled: !e.enabled }),
    onSuccess: async () => {
      notifySuccess(t('webhooks.changed'));
      await refresh();
    },
  });
  const test = useMutation({
    mutationFn: (e: WebhookEndpointDto) => sendTestEvent(e.id),
    onSuccess: async (d) => {
      notifyMessage(
        d.status === 'delivered'
          ? t('webhooks.testSent', { code: d.lastStatusCode })
          : t('webhooks.testFailed', {
              reason: d.lastError ? t(`webhooks.deliveries.errors.${d.lastError}`) : d.lastStatusCode,
            }),
      );
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (e: WebhookEndpointDto) => deleteEndpoint(e.id),
    onSuccess: async () => {
      notifySuccess(t('webhooks.deleted'));
      await refresh();
    },
  });
  const rotate = useMutation({
    mutationFn: (e: WebhookEndpointDto) => rotateSecret(e.id),
    onSuccess: onSecret,
  });
  const confirm = (e: WebhookEndpointDto, kind: 'delete' | 'rotate') =>
    modals.openConfirmModal({
      title: t(kind === 'delete' ? 'webhooks.deleteTitle' : 'webhooks.rotateTitle'),
      children: (
        <Text size="sm">
          {kind === 'delete' ? t('webhooks.deleteText', { url: isolate(e.url) }) : t('webhooks.rotateText')}
        </Text>
      ),
      labels: {
        confirm: kind === 'delete' ? t('common.delete') : t('webhooks.rotateConfirm'),
        cancel: t('common.cancel'),
      },
      confirmProps: { color: 'red' },
      onConfirm: () => (kind === 'delete' ? remove.mutate(e) : rotate.mutate(e)),
    });

  if (list.isLoading)
    return (
      <Stack aria-busy="true" aria-label={t('webhooks.loading')}>
        <SectionLoader />
      </Stack>
    );
  if (list.isError && !list.data)
    return <ErrorState onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  const items = list.data?.items ?? [];
  if (!items.length)
    return (
      <EmptyState
        icon={<IconWebhook size={30} />}
        title={t('webhooks.empty')}
        text={t('webhooks.emptyHint')}
      />
    );
  return (
    <ListTable
      minWidth={640}
      testId="webhook-endpoints"
      headings={[t('webhooks.url'), t('webhooks.events'), t('webhooks.state'), { w: 180 }]}
    >
      {items.map((e) => {
        const url = isolate(e.url);
        return (
          <Table.Tr key={e.id} data-testid="webhook-endpoint-row">
            <Table.Td maw={320}>
              <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
                {e.url}
              </Text>
              {e.description && (
                <Text size="xs" c="dimmed">
                  {e.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="sm">{t('webhooks.eventCount', { count: e.eventTypes.length })}</Text>
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Switch
                  checked={e.enabled}
                  onChange={() => toggle.mutate(e)}
                  aria-label={t('webhooks.enable', { url })}
                  data-testid="webhook-enabled"
                />
                <Badge
                  variant="light"
                  color={e.enabled ? 'teal' : e.disabledReason === 'failing' ? 'red' : 'gray'}
                >
                  {t(
                    e.enabled
                      ? 'webhooks.enabled'
                      : e.disabledReason === 'failing'
                        ? 'webhooks.disabledFailing'
                        : 'webhooks.disabledManual',
                  )}
                </Badge>
              </Group>
              {e.failingSince && (
                <Text size="xs" c="red" mt={4}>
                  {t('webhooks.failingSince', { date: when.format(new Date(e.failingSince)) })}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Group gap={4} wrap="nowrap">
                <RowAction
                  label={t('webhooks.log', { url })}
                  icon={<IconTimeline size={18} />}
                  onClick={() => onLog(e)}
                />
                <RowAction
                  label={t('webhooks.test', { url })}
                  icon={<IconSend size={18} />}
                  onClick={() => test.mutate(e)}
                />
                <RowAction
                  label={t('webhooks.edit', { url })}
                  icon={<IconPencil size={18} />}
                  onClick={() => onEdit(e)}
                />
                <RowAction
                  label={t('webhooks.rotate', { url })}
                  icon={<IconKey size={18} />}
                  onClick={() => confirm(e, 'rotate')}
                />
                <RowAction
                  label={t('webhooks.delete', { url })}
                  icon={<IconTrash size={18} />}
                  color="red"
                  onClick={() => confirm(e, 'delete')}
                />
              </Group>
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
