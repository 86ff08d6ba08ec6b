import { PasswordInput, TextInput } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CallbackCreatedModal, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/** The ids are settings (shown again), the token and secrets write-only (empty: unchanged when editing). */
function WhatsAppFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const phone = channel?.settings.displayPhoneNumber;
  const text = (field: string, placeholder: string) => (
    <TextInput
      label={t(`messengers.whatsapp.${field}`)}
      description={t(`messengers.whatsapp.${field}Hint`)}
      required
      disabled={disabled}
      inputMode="numeric"
      autoComplete="off"
      placeholder={placeholder}
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  const secret = (field: string) => (
    <PasswordInput
      label={t(`messengers.whatsapp.${field}`)}
      description={t(editing ? 'messengers.whatsapp.keep' : `messengers.whatsapp.${field}Hint`)}
      required={!editing}
      disabled={disabled}
      autoComplete="off"
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  return (
    <>
      {typeof phone === 'string' && (
        <TextInput label={t('messengers.whatsapp.phone')} value={phone} readOnly variant="filled" />
      )}
      {channel && (
        <TextInput
          label={t('messengers.whatsapp.callbackUrl')}
          value={callbackUrl(channel)}
          readOnly
          variant="filled"
          data-testid="whatsapp-callback-url"
        />
      )}
      {text('phoneNumberId', '106540352242922')}
      {text('wabaId', '102290129340398')}
      {secret('accessToken')}
      {secret('appSecret')}
      {secret('verifyToken')}
    </>
  );
}

/** After creation: where Meta must send the webhooks, and with which verify token. */
function WhatsAppCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  return (
    <CallbackCreatedModal
      channel={channel}
      onClose={onClose}
      testId="whatsapp-callback-url"
      texts={{
        title: 'messengers.whatsapp.webhookTitle',
        text: 'messengers.whatsapp.webhookText',
        url: 'messengers.whatsapp.callbackUrl',
        steps: ['messengers.whatsapp.webhookStep1', 'messengers.whatsapp.webhookStep2'],
        done: 'messengers.whatsapp.done',
      }}
    />
  );
}

/**
 * WhatsApp Business through Meta's Cloud API: the phone number id, WABA id and access token are checked with
 * Meta; Meta then posts to our callback URL, signed with the app secret, after checking it with the verify token.
 */
export const whatsappChannel: ChannelTypeUi = {
  type: 'whatsapp',
  icon: IconBrandWhatsapp,
  guideSteps: [
    'messengers.guide.whatsapp.step1',
    'messengers.guide.whatsapp.step2',
    'messengers.guide.whatsapp.step3',
    'messengers.guide.whatsapp.step4',
  ],
  guideNote: 'messengers.guide.whatsapp.note',
  required: ['phoneNumberId', 'wabaId', 'accessToken', 'appSecret', 'verifyToken'],
  initial: (c) => ({
    phoneNumberId: typeof c?.settings.phoneNumberId === 'string' ? c.settings.phoneNumberId : '',
    wabaId: typeof c?.settings.wabaId === 'string' ? c.settings.wabaId : '',
    accessToken: '',
    appSecret: '',
    verifyToken: '',
  }),
  Fields: WhatsAppFields,
  session: { hours: 24, templatesLabel: 'messengers.templates.button' },
  clientEdits: false,
  summary: (c) => (typeof c.settings.displayPhoneNumber === 'string' ? c.settings.displayPhoneNumber : null),
  Created: WhatsAppCreated,
};
