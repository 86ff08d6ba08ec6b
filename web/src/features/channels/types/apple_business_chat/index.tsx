import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconBrandApple } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { Copyable, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/**
 * The business id and the MSP id (identifiers, typed in the clear so they can be checked against Apple Business
 * Register; shown on edit) and the MSP's API secret (masked, write-only on edit). The server checks them with
 * Apple's gateway. Editing: the webhook address to give the provider.
 */
function AppleBusinessFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('messengers.appleBusiness.businessId')}
        description={t('messengers.appleBusiness.businessIdHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        value={values.businessId ?? ''}
        error={errors.businessId}
        onChange={(e) => onChange('businessId', e.currentTarget.value)}
      />
      <TextInput
        label={t('messengers.appleBusiness.mspId')}
        description={t('messengers.appleBusiness.mspIdHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        value={values.mspId ?? ''}
        error={errors.mspId}
        onChange={(e) => onChange('mspId', e.currentTarget.value)}
      />
      <PasswordInput
        label={t('messengers.appleBusiness.secret')}
        description={t(editing ? 'messengers.appleBusiness.keep' : 'messengers.appleBusiness.secretHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        value={values.secret ?? ''}
        error={errors.secret}
        onChange={(e) => onChange('secret', e.currentTarget.value)}
      />
      {editing && channel && <WebhookAddress channel={channel} />}
    </>
  );
}

function WebhookAddress({ channel }: { channel: { inboundUrl: string } }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Copyable
        label={t('messengers.appleBusiness.webhookUrl')}
        value={callbackUrl(channel)}
        testId="apple-business-webhook-url"
      />
      <Text size="xs" c="gray.7">
        {t('messengers.appleBusiness.webhookHint')}
      </Text>
    </Stack>
  );
}

/** Shown after creation: the webhook address to give the provider (it is shown on the channel's page as well). */
function AppleBusinessCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('messengers.appleBusiness.webhookUrl')} size="lg">
      <Stack>
        <WebhookAddress channel={channel} />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('common.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Apple Messages for Business through a messaging service provider (issue 35): customers write from Messages; Apple
 * posts their messages to the channel's webhook, given to the provider after saving.
 */
export const appleBusinessChannel: ChannelTypeUi = {
  type: 'apple_business_chat',
  icon: IconBrandApple,
  guideIntro: 'messengers.appleBusiness.intro',
  guideSteps: [
    'messengers.appleBusiness.step1',
    'messengers.appleBusiness.step2',
    'messengers.appleBusiness.step3',
    'messengers.appleBusiness.step4',
    'messengers.appleBusiness.step5',
  ],
  guideNote: 'messengers.appleBusiness.note',
  required: ['businessId', 'mspId', 'secret'],
  // The ids are shown (the server presents them); the secret is write-only: empty until a new one is typed.
  initial: (c) => ({
    businessId: typeof c?.settings.businessId === 'string' ? c.settings.businessId : '',
    mspId: typeof c?.settings.mspId === 'string' ? c.settings.mspId : '',
    secret: '',
  }),
  Fields: AppleBusinessFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.businessId === 'string' && c.settings.businessId
      ? `Business ID ${c.settings.businessId}`
      : null,
  Created: AppleBusinessCreated,
};
