import { Alert, Box, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { post } from '../../shared/api/client.ts';
import { useTranslation } from '../../shared/i18n/index.ts';
import { embedSupportWidget } from './embed.ts';
import { supportKeys } from './keys.ts';

type SupportVisitor = { channelId: string; visitorId: string; token: string };

/** `/admin/support`: the user's own chat with platform support, as themselves (their account and organisation). */
export function SupportPage() {
  const { t } = useTranslation();
  const visitor = useQuery({
    queryKey: supportKeys.visitor,
    queryFn: () => post<SupportVisitor>('/api/support/visitor'),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const data = visitor.data;
  useEffect(() => {
    if (!data) return;
    return embedSupportWidget({ channelId: data.channelId, token: data.token, inline: '#sc-support-chat' });
  }, [data]);
  return (
    <Stack maw={720} gap="md">
      <Title order={2}>{t('menu.support')}</Title>
      <Text c="dimmed">{t('siteChat.support.hint')}</Text>
      {visitor.isPending && <Loader aria-label={t('siteChat.support.loading')} />}
      {visitor.isError && <Alert color="yellow">{t('siteChat.support.unavailable')}</Alert>}
      <Box id="sc-support-chat" h={560} data-testid="support-chat" hidden={!data} />
    </Stack>
  );
}
