import { Badge, Button, Group, Paper, SimpleGrid, Switch, Table, Text, Title } from '@mantine/core';
import type { ChannelCreatedDto, ChannelDto } from '@smartconnect/contracts';
import { IconApi, IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../shared/notify.ts';
import { EmptyState } from '../../shared/ui/empty-state.tsx';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { ListTable } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { channelKeys, setChannelStatus, useChannels } from './api.ts';
import { ChannelCreateModal } from './channel-create-modal.tsx';
import { ChannelKeyModal } from './channel-key-modal.tsx';

/** §2.6 channel types with no adapter yet: listed as available soon. */
const SOON = [
  'telegram',
  'site_chat',
  'whatsapp',
  'viber',
  'viber_bot',
  'vk_bot',
  'email',
  'voip',
  'instagram',
];

/** /admin/preferences/channels: connected channels, an API channel to create, the other types to come. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const channels = useChannels();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ChannelCreatedDto | null>(null);
  const toggle = useMutation({
    mutationFn: (c: ChannelDto) => setChannelStatus(c.id, c.status === 'active' ? 'inactive' : 'active'),
    onSuccess: async () => {
      notifySuccess(t('channels.changed'));
      await client.invalidateQueries({ queryKey: channelKeys.all });
    },
  });
  const items = channels.data ?? [];
  return (
    <>
      <Paper p={0} mb="lg">
        <Group
          p="md"
          justify="space-between"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Title order={3} fz="lg">
            {t('channels.connected')}
          </Title>
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            {t('channels.addApi')}
          </Button>
        </Group>
        {channels.isLoading ? (
          <SectionLoader />
        ) : channels.isError && !channels.data ? (
          <ErrorState onRetry={() => void channels.refetch()} retrying={channels.isFetching} />
        ) : items.length === 0 ? (
          <EmptyState
            icon={<IconPlugConnected size={30} />}
            title={t('channels.empty')}
            text={t('channels.emptyHint')}
          />
        ) : (
          <ListTable
            minWidth={640}
            testId="channels-table"
            headings={[
              t('channels.name'),
              t('channels.type'),
              t('channels.team'),
              t('channels.webhookUrl'),
              t('channels.status'),
            ]}
          >
            {items.map((c) => (
              <Table.Tr key={c.id} data-testid={`channel-${c.name}`}>
                <Table.Td fw={600}>
                  <UserText>{c.name}</UserText>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" leftSection={<IconApi size={12} />}>
                    {t(`channels.types.${c.type}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <UserText>{c.team.name}</UserText>
                </Table.Td>
                <Table.Td maw={260}>
                  <Text size="sm" truncate>
                    {typeof c.settings.webhookUrl === 'string' ? c.settings.webhookUrl : '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Switch
                    checked={c.status === 'active'}
                    label={c.status === 'active' ? t('common.active') : t('common.inactive')}
                    aria-label={t('channels.statusOf', { name: c.name })}
                    disabled={toggle.isPending}
                    onChange={() => toggle.mutate(c)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </Paper>
      <Paper p="md">
        <Title order={3} fz="lg" mb="md">
          {t('channels.available')}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 3 }} spacing="sm">
          {SOON.map((type) => (
            <Group
              key={type}
              justify="space-between"
              p="sm"
              style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
            >
              <Text size="sm" fw={500}>
                {t(`channels.types.${type}`)}
              </Text>
              <Badge color="gray" variant="light" size="sm">
                {t('channels.soon')}
              </Badge>
            </Group>
          ))}
        </SimpleGrid>
      </Paper>
      <ChannelCreateModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          setCreating(false);
          setCreated(c);
          notifySuccess(t('channels.created'));
          void client.invalidateQueries({ queryKey: channelKeys.all });
        }}
      />
      <ChannelKeyModal channel={created} onClose={() => setCreated(null)} />
    </>
  );
}
