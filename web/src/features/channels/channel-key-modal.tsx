import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Modal,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconCheck, IconCopy, IconKey, IconWebhook } from '@tabler/icons-react';
import { useTranslation } from '../../shared/i18n/index.ts';
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

/**
 * After creating a webhook channel whose provider is set up by hand (WhatsApp in the Meta app, VK's Callback API):
 * our callback address to paste there and the steps, texts under the type's i18n keys.
 */
export function CallbackCreatedModal({
  channel,
  onClose,
  texts,
  testId,
}: {
  channel: ChannelCreatedDto;
  onClose: () => void;
  texts: { title: string; text: string; url: string; steps: string[]; done: string };
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t(texts.title)} size="lg">
      <Stack>
        <Alert color="blue" variant="light" icon={<IconWebhook size={18} />}>
          {t(texts.text)}
        </Alert>
        <Copyable label={t(texts.url)} value={callbackUrl(channel)} testId={testId} />
        <List type="ordered" spacing="xs">
          {texts.steps.map((step) => (
            <List.Item key={step}>
              <Text size="sm">{t(step)}</Text>
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t(texts.done)}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The full address of a channel's webhook (`inboundUrl` is a path on this server). */
export const callbackUrl = (c: Pick<ChannelCreatedDto, 'inboundUrl'>) =>
  `${window.location.origin}${c.inboundUrl}`;
