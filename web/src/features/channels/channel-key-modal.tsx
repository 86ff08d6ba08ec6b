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
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { curlExample } from './api.ts';

export function Copyable({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('channels.copied') : t('channels.copy')}>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={t('channels.copyLabel', { label })}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {value}
      </Code>
    </div>
  );
}

/** Shown once after creation: the inbound key, the webhook signing secret and a curl example. */
export function ChannelKeyModal({
  channel,
  onClose,
}: {
  channel: ChannelCreatedDto | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const url = channel ? `${window.location.origin}${channel.inboundUrl}` : '';
  return (
    <Modal
      opened={!!channel}
      onClose={onClose}
      title={t('channels.keyTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      {channel && (
        <Stack>
          <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
            {t('channels.keyOnce')}
          </Alert>
          <Copyable label={t('channels.inboundKey')} value={channel.inboundKey ?? ''} testId="inbound-key" />
          <Copyable
            label={t('channels.webhookSecret')}
            value={channel.webhookSecret ?? ''}
            testId="webhook-secret"
          />
          <Copyable
            label={t('channels.curl')}
            value={curlExample(url, channel.inboundKey ?? '')}
            testId="curl-example"
          />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('channels.keySaved')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
