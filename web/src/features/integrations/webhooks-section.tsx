import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { WebhookEndpointDto, WebhookEndpointSecretDto } from '@smartconnect/contracts';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { DeliveryLog } from './webhooks/delivery-log.tsx';
import { EndpointDrawer } from './webhooks/endpoint-drawer.tsx';
import { EndpointList } from './webhooks/endpoint-list.tsx';
import { SecretModal } from './webhooks/secret-modal.tsx';

/** Event webhooks (issue 34): the endpoints, their event types, secrets and delivery logs. */
export function WebhooksSection() {
  const { t } = useTranslation();
  // undefined: the side page is closed; null: a new endpoint.
  const [editing, setEditing] = useState<WebhookEndpointDto | null | undefined>(undefined);
  const [logOf, setLogOf] = useState<WebhookEndpointDto | null>(null);
  const [secret, setSecret] = useState<WebhookEndpointSecretDto | null>(null);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="webhooks-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={2} size="h4" id="webhooks-title">
              {t('webhooks.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('webhooks.subtitle')}
            </Text>
          </div>
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing(null)}
            data-testid="webhook-add"
          >
            {t('webhooks.add')}
          </Button>
        </Group>
        <EndpointList onEdit={setEditing} onLog={setLogOf} onSecret={setSecret} />
      </Stack>
      <EndpointDrawer endpoint={editing} onClose={() => setEditing(undefined)} onCreated={setSecret} />
      <DeliveryLog endpoint={logOf} onClose={() => setLogOf(null)} />
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
    </Paper>
  );
}
