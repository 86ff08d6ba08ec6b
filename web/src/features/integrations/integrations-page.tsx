import { Stack } from '@mantine/core';
import { useTranslation } from '../../shared/i18n/index.ts';
import { PageHeader } from '../../shared/ui/page-header.tsx';
import { ApiKeysSection } from './api-keys-section.tsx';
import { WebhooksSection } from './webhooks-section.tsx';

/**
 * Preferences → Integrations (/admin/extensions, §2.6 "extensions (API integration, generate new API key)", issue 34):
 * the organisation's API keys and its event webhooks.
 */
export function IntegrationsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      <PageHeader title={t('integrations.title')} subtitle={t('integrations.subtitle')} />
      <Stack gap="lg" p="md">
        <ApiKeysSection />
        <WebhooksSection />
      </Stack>
    </Stack>
  );
}
