import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import type { WebhookEndpointSecretDto } from '@smartconnect/contracts';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useTranslation } from '../../../shared/i18n/index.ts';

/** Shown once, after creating an endpoint or rotating its secret: the signing secret with a copy button. */
export function SecretModal({
  shown,
  onClose,
}: {
  shown: WebhookEndpointSecretDto | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={!!shown}
      onClose={onClose}
      title={t('webhooks.secretTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      {shown && (
        <Stack>
          <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
            {t('webhooks.secretOnce')}
          </Alert>
          <div>
            <Group justify="space-between" mb={4} wrap="nowrap">
              <Text size="sm" fw={600}>
                {t('webhooks.secret')}
              </Text>
              <CopyButton value={shown.secret}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('webhooks.copied') : t('webhooks.copy')}>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label={t('webhooks.copyLabel')}
                    >
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
            <Code
              block
              data-testid="webhook-secret"
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
            >
              {shown.secret}
            </Code>
          </div>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('webhooks.secretSaved')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
