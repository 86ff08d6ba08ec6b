import { Paper, Title } from '@mantine/core';
import { useTranslation } from '../../shared/i18n/index.ts';

/** Event webhooks (issue 34): the endpoints, their event types, secrets and delivery logs. */
export function WebhooksSection() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="webhooks-title">
      <Title order={2} size="h4" id="webhooks-title">
        {t('webhooks.title')}
      </Title>
    </Paper>
  );
}
