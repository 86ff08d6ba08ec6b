import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { type ChannelCreatedDto, SMS_SERVICES } from '@smartconnect/contracts';
import { IconDeviceMobileMessage, IconFileImport, IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { Copyable, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/** The service's callback address with the key (shown once, after creation) or a placeholder for it. */
const smsCallback = (c: { inboundUrl: string }, key: string) => `${callbackUrl(c)}?key=${key}`;

/**
 * The service the account is at; editing: its callback address (the key was shown once, at creation) and the way
 * to the import of its export files.
 */
function SmsFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Select
        label={t('messengers.sms.service')}
        description={t('messengers.sms.serviceHint')}
        required
        disabled={disabled}
        data={SMS_SERVICES.map((s) => ({ value: s, label: t(`messengers.sms.services.${s}`) }))}
        value={values.service || null}
        error={errors.service}
        onChange={(v) => onChange('service', v ?? '')}
        allowDeselect={false}
        data-testid="sms-service"
      />
      {editing && channel && (
        <Stack gap="xs">
          <Copyable
            label={t('messengers.sms.callbackUrl')}
            value={smsCallback(channel, '…')}
            testId="sms-callback-url"
          />
          <Text size="xs" c="gray.7">
            {t('messengers.sms.keyShownOnce')}
          </Text>
          <Group>
            <Button
              component={Link}
              to={`/admin/sms-imports?channel=${channel.id}`}
              variant="light"
              leftSection={<IconFileImport size={18} />}
              data-testid="sms-open-import"
            >
              {t('messengers.sms.openImport')}
            </Button>
          </Group>
        </Stack>
      )}
    </>
  );
}

/** Shown once after creation: the callback address with its key, to paste into the service's settings. */
function SmsCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('messengers.sms.createdTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack>
        <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
          {t('messengers.sms.createdText')}
        </Alert>
        <Copyable
          label={t('messengers.sms.callbackUrl')}
          value={smsCallback(channel, channel.inboundKey ?? '')}
          testId="sms-callback-url"
        />
        <Text size="sm">{t('messengers.sms.createdImport')}</Text>
        <Group justify="flex-end">
          <Button
            component={Link}
            to={`/admin/sms-imports?channel=${channel.id}`}
            variant="default"
            leftSection={<IconFileImport size={18} />}
          >
            {t('messengers.sms.openImport')}
          </Button>
          <Button onClick={onClose}>{t('channels.keySaved')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * An account at an SMS mailing service (SMS.ru, SMSC.ru or another, issue 33): nothing is sent through it; the SMS
 * the business sent there are imported into the clients' histories from the service's export files
 * (/admin/sms-imports) or its callbacks to the channel's address with the key shown once.
 */
export const smsChannel: ChannelTypeUi = {
  type: 'sms',
  icon: IconDeviceMobileMessage,
  guideIntro: 'messengers.sms.intro',
  guideSteps: ['messengers.sms.step1', 'messengers.sms.step2', 'messengers.sms.step3'],
  guideNote: 'messengers.sms.note',
  required: ['service'],
  initial: (c) => ({ service: typeof c?.settings.service === 'string' ? c.settings.service : '' }),
  Fields: SmsFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.service === 'string' && c.settings.service !== 'other'
      ? c.settings.service === 'smsru'
        ? 'SMS.ru'
        : 'SMSC.ru'
      : null,
  Created: SmsCreated,
};
