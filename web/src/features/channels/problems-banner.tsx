import { Alert, Anchor, CloseButton, Group, Stack, Text } from '@mantine/core';
import type { ChannelProblemDto, Page } from '@smartconnect/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { get, post } from '../../shared/api/client.ts';
import { isolate } from '../../shared/bidi.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { useCurrentUser } from '../../shared/session.tsx';
import { blinkTitle } from '../../shared/title.ts';
import { channelKeys } from './keys.ts';

/**
 * §8 'Problem detected!' for administrators (the channels right): a banner naming each channel in trouble, with a
 * link to it and a way to dismiss it, and the tab's title blinking while any problem is open.
 */
export function ProblemsBanner() {
  const me = useCurrentUser();
  if (!me.rights.includes('AUTHORITY_SERVICE_ACCOUNT')) return null;
  return <Problems />;
}

function Problems() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const problems = useQuery({
    queryKey: channelKeys.problems,
    queryFn: () => get<Page<ChannelProblemDto>>('/api/channels/problems'),
    meta: { silent: true },
    staleTime: 60_000,
  });
  const dismiss = useMutation({
    mutationFn: (channelId: string) => post(`/api/channels/${channelId}/problems/dismiss`),
    onSettled: () => client.invalidateQueries({ queryKey: channelKeys.problems }),
  });
  const items = problems.data?.items ?? [];
  const open = items.length > 0;
  useEffect(() => {
    if (!open) return;
    return blinkTitle(t('notices.problem'));
  }, [open, t]);
  if (!open) return null;
  // One line per channel, its problems together.
  const channels = new Map<string, ChannelProblemDto[]>();
  for (const p of items) channels.set(p.channelId, [...(channels.get(p.channelId) ?? []), p]);
  return (
    <Alert
      role="alert"
      data-testid="problems-banner"
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('notices.problem')}
      mb="md"
      styles={{ message: { color: 'var(--mantine-color-dark-7)' } }}
    >
      <Stack gap={4}>
        {[...channels.entries()].map(([channelId, list]) => {
          const name = isolate(list[0].channelName);
          return (
            <Group key={channelId} justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm">
                <Anchor
                  component={Link}
                  to={`/admin/preferences/channels/${channelId}`}
                  fw={600}
                  underline="always"
                  c="var(--mantine-color-dark-7)"
                  aria-label={t('channels.problemOpen', { channel: name })}
                >
                  {name}
                </Anchor>
                {': '}
                {list.map((p) => t(`channels.problemKinds.${p.kind}`)).join('; ')}
              </Text>
              <CloseButton
                size="sm"
                aria-label={t('channels.problemDismiss', { channel: name })}
                onClick={() => dismiss.mutate(channelId)}
                disabled={dismiss.isPending}
              />
            </Group>
          );
        })}
      </Stack>
    </Alert>
  );
}
