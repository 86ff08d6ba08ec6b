import { Badge, Button, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import type { WebhookDeliveryDto, WebhookEndpointDto } from '@smartconnect/contracts';
import { IconSend, IconTimeline } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { dateFormat } from '../../../shared/intl.ts';
import { notifyMessage } from '../../../shared/notify.ts';
import { EmptyState } from '../../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../../shared/ui/full-loader.tsx';
import { ListTable } from '../../../shared/ui/list-table.tsx';
import { LOG_PAGE, redeliver, useWebhookDeliveries } from './api.ts';
import { eventNameKey } from './event-names.ts';
import { webhookKeys } from './keys.ts';

const STATUS_COLOURS = { pending: 'orange', delivered: 'teal', failed: 'red' } as const;

/** The side page of one endpoint's delivery log: status, answer code, duration, next attempt; send one again. */
export function DeliveryLog({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpointDto | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Drawer
      opened={!!endpoint}
      onClose={onClose}
      position="right"
      size={980}
      title={t('webhooks.deliveries.title')}
      styles={{ title: { fontWeight: 650, fontSize: 20 } }}
    >
      {endpoint && <LogPages key={endpoint.id} endpoint={endpoint} />}
    </Drawer>
  );
}

function LogPages({ endpoint }: { endpoint: WebhookEndpointDto }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [offset, setOffset] = useState(0);
  const log = useWebhookDeliveries(endpoint.id, offset);
  const when = dateFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  const again = useMutation({
    mutationFn: (d: WebhookDeliveryDto) => redeliver(endpoint.id, d.id),
    onSuccess: async (d) => {
      notifyMessage(
        t('webhooks.deliveries.redelivered', { status: t(`webhooks.deliveries.statuses.${d.status}`) }),
      );
      await client.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) });
      await client.invalidateQueries({ queryKey: webhookKeys.endpoints });
    },
  });
  const eventName = (type: string) => t(eventNameKey(type), { defaultValue: type });
  const none = t('webhooks.deliveries.none');
  if (log.isLoading) return <SectionLoader />;
  if (log.isError && !log.data)
    return <ErrorState onRetry={() => void log.refetch()} retrying={log.isFetching} />;
  const items = log.data?.items ?? [];
  const total = log.data?.total ?? 0;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
        {endpoint.url}
      </Text>
      {!items.length ? (
        <EmptyState
          icon={<IconTimeline size={30} />}
          title={t('webhooks.deliveries.empty')}
          text={t('webhooks.deliveries.emptyHint')}
        />
      ) : (
        <ListTable
          minWidth={880}
          testId="webhook-deliveries"
          headings={[
            t('webhooks.deliveries.event'),
            t('webhooks.deliveries.status'),
            t('webhooks.deliveries.code'),
            t('webhooks.deliveries.duration'),
            t('webhooks.deliveries.attempts'),
            t('webhooks.deliveries.next'),
            { w: 150 },
          ]}
        >
          {items.map((d) => (
            <Table.Tr key={d.id} data-testid="webhook-delivery-row">
              <Table.Td>
                <Text size="sm" fw={600}>
                  {eventName(d.eventType)}
                </Text>
                <Text size="xs" c="dimmed">
                  {when.format(new Date(d.createdAt))}
                </Text>
              </Table.Td>
              <Table.Td miw={150}>
                <Badge variant="light" color={STATUS_COLOURS[d.status]} data-testid="webhook-delivery-status">
                  {t(`webhooks.deliveries.statuses.${d.status}`)}
                </Badge>
                {d.lastError && (
                  <Text size="xs" c="dimmed" mt={4} data-testid="webhook-delivery-error">
                    {t(`webhooks.deliveries.errors.${d.lastError}`)}
                  </Text>
                )}
              </Table.Td>
              <Table.Td data-testid="webhook-delivery-code">{d.lastStatusCode ?? none}</Table.Td>
              <Table.Td>
                {d.lastDurationMs === null ? none : t('webhooks.deliveries.ms', { ms: d.lastDurationMs })}
              </Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>{d.nextAttemptAt ? when.format(new Date(d.nextAttemptAt)) : none}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconSend size={14} />}
                  loading={again.isPending && again.variables?.id === d.id}
                  aria-label={t('webhooks.deliveries.redeliverLabel', {
                    event: eventName(d.eventType),
                  })}
                  onClick={() => again.mutate(d)}
                >
                  {t('webhooks.deliveries.redeliver')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      {total > LOG_PAGE && (
        <Group justify="space-between">
          <Button
            variant="default"
            size="xs"
            disabled={offset === 0}
            onClick={() => setOffset(offset - LOG_PAGE)}
          >
            {t('webhooks.deliveries.previous')}
          </Button>
          <Text size="sm">
            {t('webhooks.deliveries.range', {
              from: offset + 1,
              to: Math.min(offset + LOG_PAGE, total),
              total,
            })}
          </Text>
          <Button
            variant="default"
            size="xs"
            disabled={offset + LOG_PAGE >= total}
            onClick={() => setOffset(offset + LOG_PAGE)}
          >
            {t('webhooks.deliveries.next_page')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
