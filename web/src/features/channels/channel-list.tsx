import { Anchor, Group, Stack, Switch, Table, Text, ThemeIcon } from '@mantine/core';
import type { ChannelDto } from '@smartconnect/contracts';
import { IconPencil } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ListTable, RowAction } from '../../shared/ui/list-table.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { formatDateTime } from '../users/api.ts';
import { setChannelStatus } from './api.ts';
import { channelKeys } from './keys.ts';
import { channelUi, iconOf } from './types/registry.ts';

/** The connected channels: type, name (opens the channel), team, status switch, last customer message. */
export function ChannelList({ items }: { items: ChannelDto[] }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const toggle = useMutation({
    mutationFn: (c: ChannelDto) => setChannelStatus(c.id, c.status === 'active' ? 'inactive' : 'active'),
    onSuccess: async () => {
      notifySuccess(t('channels.changed'));
      await client.invalidateQueries({ queryKey: channelKeys.all });
    },
  });
  return (
    <ListTable
      minWidth={720}
      testId="channels-table"
      headings={[
        t('channels.name'),
        t('channels.type'),
        t('channels.team'),
        t('channels.status'),
        t('channels.lastInbound'),
        { w: 56 },
      ]}
    >
      {items.map((c) => {
        const Icon = iconOf(c.type);
        const summary = channelUi(c.type)?.summary?.(c);
        return (
          <Table.Tr key={c.id} data-testid={`channel-${c.name}`}>
            <Table.Td maw={280}>
              <Stack gap={0}>
                <Anchor component={Link} to={`/admin/preferences/channels/${c.id}`} fw={600} size="sm">
                  <UserText>{c.name}</UserText>
                </Anchor>
                {summary && (
                  <Text size="xs" c="dimmed" truncate>
                    <UserText>{summary}</UserText>
                  </Text>
                )}
              </Stack>
            </Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <ThemeIcon variant="light" size="sm" radius="sm">
                  <Icon size={14} />
                </ThemeIcon>
                <Text size="sm">{t(`channels.types.${c.type}`)}</Text>
              </Group>
            </Table.Td>
            <Table.Td>
              <UserText>{c.team.name}</UserText>
            </Table.Td>
            <Table.Td>
              <Switch
                checked={c.status === 'active'}
                label={c.status === 'active' ? t('common.active') : t('common.inactive')}
                aria-label={t('channels.statusOf', { name: isolate(c.name) })}
                disabled={toggle.isPending}
                onChange={() => toggle.mutate(c)}
              />
            </Table.Td>
            <Table.Td>
              <Text size="sm" c={c.lastInboundAt ? undefined : 'dimmed'} data-testid="last-inbound">
                {formatDateTime(c.lastInboundAt, i18n.language) ?? t('channels.noInbound')}
              </Text>
              {c.lastUnreadable && (
                // The latest provider update the server could not read that named no client (answered, logged).
                <Text size="xs" c="orange.9" data-testid="last-unreadable">
                  {t('channels.lastUnreadable', {
                    at: formatDateTime(c.lastUnreadable.at, i18n.language) ?? '',
                    reason: c.lastUnreadable.reason,
                  })}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <RowAction
                label={t('channels.editOf', { name: isolate(c.name) })}
                icon={<IconPencil size={16} />}
                onClick={() => navigate(`/admin/preferences/channels/${c.id}`)}
              />
            </Table.Td>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}
