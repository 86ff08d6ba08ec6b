import { Anchor, Badge, Button, Group, Paper, Stack, Tabs, Text, ThemeIcon, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ChannelDto } from '@smartconnect/contracts';
import { IconArrowLeft, IconMessageBolt, IconRoute, IconSettings, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../shared/api/errors.ts';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { ErrorState } from '../../shared/ui/error-state.tsx';
import { SectionLoader } from '../../shared/ui/full-loader.tsx';
import { UserText } from '../../shared/ui/user-text.tsx';
import { ChannelRoutingTab } from '../routing-rules/channel-routing-tab.tsx';
import { deleteChannel, useChannel } from './api.ts';
import { AutoRepliesTab } from './auto-replies/auto-replies-tab.tsx';
import { GeneralTab } from './general-tab.tsx';
import { channelKeys } from './keys.ts';
import { channelUi, iconOf } from './types/registry.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** /admin/preferences/channels/:id: a channel's tabs of §2.6 (general, routing, automatic replies). */
export function ChannelEditPage() {
  const { id = '' } = useParams();
  const valid = UUID.test(id);
  const channel = useChannel(valid ? id : '');
  if (!valid) return <Navigate to="/not-found" replace />;
  if (!channel.data) {
    // 403 and 404 leave for /no-rights and /not-found; a server or network failure can be retried here.
    const leaving = isApiError(channel.error) && [403, 404].includes(channel.error.status);
    if (channel.isError && !leaving)
      return (
        <Paper>
          <ErrorState onRetry={() => void channel.refetch()} retrying={channel.isFetching} />
        </Paper>
      );
    return <SectionLoader />;
  }
  return <ChannelEditor key={channel.data.id} channel={channel.data} />;
}

function ChannelEditor({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const ui = channelUi(channel.type);
  const Icon = iconOf(channel.type);
  const remove = useMutation({
    mutationFn: () => deleteChannel(channel.id),
    onSuccess: async () => {
      notifySuccess(t('channels.deleted'));
      client.removeQueries({ queryKey: channelKeys.one(channel.id) });
      await client.invalidateQueries({ queryKey: channelKeys.all });
      navigate('/admin/preferences/channels');
    },
  });
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('channels.deleteTitle'),
      children: <Text size="sm">{t('channels.deleteText', { name: isolate(channel.name) })}</Text>,
      labels: { confirm: t('channels.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/preferences/channels" size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} /> {t('preferences.channels')}
        </Group>
      </Anchor>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ThemeIcon variant="light" size="lg" radius="md">
            <Icon size={20} />
          </ThemeIcon>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Title order={3} fz="lg" style={{ overflowWrap: 'anywhere' }}>
              <UserText>{channel.name}</UserText>
            </Title>
            <Group gap={6}>
              <Text size="sm" c="dimmed">
                {t(`channels.types.${channel.type}`)}
              </Text>
              <Badge size="sm" variant="light" color={channel.status === 'active' ? 'teal' : 'gray'}>
                {channel.status === 'active' ? t('common.active') : t('common.inactive')}
              </Badge>
            </Group>
          </Stack>
        </Group>
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} />}
          onClick={confirmDelete}
          loading={remove.isPending}
        >
          {t('channels.delete')}
        </Button>
      </Group>
      <Paper p="md">
        <Tabs defaultValue="general" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="general" leftSection={<IconSettings size={16} />}>
              {t('channels.tabs.general')}
            </Tabs.Tab>
            <Tabs.Tab value="routing" leftSection={<IconRoute size={16} />}>
              {t('channels.tabs.routing')}
            </Tabs.Tab>
            <Tabs.Tab value="autoReplies" leftSection={<IconMessageBolt size={16} />}>
              {t('channels.tabs.autoReplies')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="general">
            {ui ? <GeneralTab channel={channel} ui={ui} /> : <Text c="dimmed">{t('channels.noEditor')}</Text>}
          </Tabs.Panel>
          <Tabs.Panel value="routing">
            <ChannelRoutingTab channel={channel} />
          </Tabs.Panel>
          <Tabs.Panel value="autoReplies">
            <AutoRepliesTab channel={channel} />
          </Tabs.Panel>
        </Tabs>
      </Paper>
    </Stack>
  );
}
