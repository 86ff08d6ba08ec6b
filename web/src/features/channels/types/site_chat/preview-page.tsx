import '../../../../shared/ui/admin-styles.ts';
import { Anchor, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { embedSupportWidget } from '../../../support/embed.ts';

/**
 * /widget-preview/{channelId}: a sample page of a customer's site with the channel's widget on it, as its visitors
 * see it (the same one tag as the snippet). Public, like the widget itself: an administrator tries the channel
 * before installing it, and anyone can try the Demo organisation's website chat.
 */
export function WidgetPreviewPage() {
  const { t } = useTranslation();
  const { channelId = '' } = useParams();
  useEffect(() => embedSupportWidget({ channelId }), [channelId]);
  return (
    <Container size="sm" py={48}>
      <Paper p="xl">
        <Stack gap="sm">
          <Title order={1} fz="h2">
            {t('siteChat.previewTitle')}
          </Title>
          <Text>{t('siteChat.previewText')}</Text>
          <Text size="sm" c="dimmed">
            {t('siteChat.previewHint')}
          </Text>
          <Anchor href="/" size="sm">
            {t('siteChat.previewBack')}
          </Anchor>
        </Stack>
      </Paper>
    </Container>
  );
}
