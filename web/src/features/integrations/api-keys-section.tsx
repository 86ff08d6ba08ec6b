import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ApiKeyCreatedDto, ApiKeyDto, ApiKeyStatus } from '@smartconnect/contracts';
import { IconKey, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { dateFormat } from '../../shared/intl.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { CreateKeyModal, KeyShownModal, RotateKeyModal } from './api-key-forms.tsx';
import { revokeApiKey, useApiKeys } from './api-keys-api.ts';
import { apiKeyKeys } from './keys.ts';

const STATUS_COLOR: Record<ApiKeyStatus, string> = {
  active: 'green',
  expiring: 'orange',
  expired: 'gray',
  revoked: 'red',
};

/**
 * The organisation's API keys (issue 34): generate one with a name and scopes (shown once), see when and from where
 * each was last used, rotate one with an overlap, revoke one (refused at once).
 */
export function ApiKeysSection() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<ApiKeyDto | null>(null);
  const [shown, setShown] = useState<ApiKeyCreatedDto | null>(null);
  const when = (iso: string | null) =>
    iso ? dateFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)) : null;
  const revoke = useMutation({
    mutationFn: (k: ApiKeyDto) => revokeApiKey(k.id),
    onSuccess: async () => {
      notifySuccess(t('integrations.revoked'));
      await client.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
  });
  const confirmRevoke = (k: ApiKeyDto) =>
    modals.openConfirmModal({
      title: t('integrations.revokeTitle'),
      children: <Text size="sm">{t('integrations.revokeText', { name: k.name })}</Text>,
      labels: { confirm: t('integrations.revoke'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'api-key-revoke-confirm' } as Record<string, unknown>,
      onConfirm: () => revoke.mutate(k),
    });
  const items = keys.data?.items ?? [];
  const live = (k: ApiKeyDto) => k.status === 'active' || k.status === 'expiring';
  const newButton = (
    <Button
      leftSection={<IconPlus size={18} aria-hidden />}
      onClick={() => setCreating(true)}
      data-testid="api-key-new"
    >
      {t('integrations.newKey')}
    </Button>
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="api-keys-title">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap" gap="sm">
        <Stack gap={2} style={{ flex: '1 1 260px' }}>
          <Title order={2} size="h4" id="api-keys-title">
            {t('integrations.keysTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('integrations.keysText')}
          </Text>
        </Stack>
        {items.length > 0 && newButton}
      </Group>
      {keys.isLoading ? (
        <SectionLoader />
      ) : !keys.data ? (
        <ErrorState onRetry={() => void keys.refetch()} retrying={keys.isFetching} />
      ) : !items.length ? (
        <EmptyState
          icon={<IconKey size={32} />}
          title={t('integrations.noKeys')}
          text={t('integrations.noKeysText')}
          action={newButton}
        />
      ) : (
        <ListTable
          minWidth={760}
          testId="api-keys"
          headings={[
            t('integrations.keyName'),
            t('integrations.key'),
            t('integrations.scopes'),
            t('integrations.status'),
            t('integrations.lastUsed'),
            { w: 90 },
          ]}
        >
          {items.map((k) => (
            <Table.Tr key={k.id} data-testid="api-key-row">
              <Table.Td>
                <Text size="sm" fw={600}>
                  {k.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('integrations.createdBy', { when: when(k.createdAt), who: k.createdBy?.name ?? '—' })}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">{`${k.prefix}…`}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {k.scopes.map((s) => (
                    <Badge key={s} variant="light" color="gray" tt="none">
                      {s}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[k.status]} variant="light" data-testid="api-key-status">
                  {t(`integrations.statuses.${k.status}`)}
                </Badge>
                {k.status === 'expiring' && k.expiresAt && (
                  <Text size="xs" c="dimmed">
                    {t('integrations.until', { when: when(k.expiresAt) })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{when(k.lastUsedAt) ?? t('common.never')}</Text>
                {k.lastUsedIp && (
                  <Text size="xs" c="dimmed">
                    {k.lastUsedIp}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {live(k) && (
                  <Group gap={2} wrap="nowrap">
                    <RowAction
                      label={t('integrations.rotateLabel', { name: k.name })}
                      icon={<IconRefresh size={18} />}
                      onClick={() => setRotating(k)}
                    />
                    <RowAction
                      label={t('integrations.revokeLabel', { name: k.name })}
                      icon={<IconTrash size={18} />}
                      color="red"
                      onClick={() => confirmRevoke(k)}
                    />
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      )}
      {creating && (
        <CreateKeyModal
          onClose={() => setCreating(false)}
          onCreated={(made) => {
            setCreating(false);
            setShown(made);
          }}
        />
      )}
      {rotating && (
        <RotateKeyModal
          apiKey={rotating}
          onClose={() => setRotating(null)}
          onRotated={(made) => {
            setRotating(null);
            setShown(made);
          }}
        />
      )}
      {shown && <KeyShownModal made={shown} onClose={() => setShown(null)} />}
    </Paper>
  );
}
