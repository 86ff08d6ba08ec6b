import { Input, PasswordInput, SegmentedControl, TextInput } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconBrandWhatsapp } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { CallbackCreatedModal, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

const CLOUD_REQUIRED = ['phoneNumberId', 'wabaId', 'accessToken', 'appSecret', 'verifyToken'];
const BSP_REQUIRED = ['phone', 'login', 'password'];
const isBsp = (values: Record<string, string>) => values.provider === 'bsp';

/** The provider is chosen when creating: Meta's Cloud API, or a business solution provider (login and password). */
function ProviderChoice({ values, onChange, editing, disabled }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <Input.Wrapper label={t('messengers.whatsappBsp.provider')} id="whatsapp-provider">
      <SegmentedControl
        fullWidth
        aria-label={t('messengers.whatsappBsp.provider')}
        disabled={disabled || editing}
        value={values.provider || 'cloud'}
        onChange={(v) => onChange('provider', v)}
        data={[
          { value: 'cloud', label: t('messengers.whatsappBsp.cloud') },
          { value: 'bsp', label: t('messengers.whatsappBsp.bsp') },
        ]}
        data-testid="whatsapp-provider"
      />
    </Input.Wrapper>
  );
}

/** A business solution provider: the business phone and login are settings, the password write-only. */
function BspFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const text = (field: 'phone' | 'login', placeholder: string) => (
    <TextInput
      label={t(`messengers.whatsappBsp.${field}`)}
      description={t(`messengers.whatsappBsp.${field}Hint`)}
      required
      disabled={disabled}
      autoComplete="off"
      inputMode={field === 'phone' ? 'tel' : undefined}
      placeholder={placeholder}
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  return (
    <>
      <ProviderChoice
        values={values}
        errors={errors}
        onChange={onChange}
        editing={editing}
        disabled={disabled}
      />
      {channel && (
        <TextInput
          label={t('messengers.whatsapp.callbackUrl')}
          description={t('messengers.whatsappBsp.callbackKeyHint')}
          value={callbackUrl(channel)}
          readOnly
          variant="filled"
          data-testid="whatsapp-callback-url"
        />
      )}
      {text('phone', '+44 7700 900123')}
      {text('login', '2000190001')}
      <PasswordInput
        label={t('messengers.whatsappBsp.password')}
        description={t(editing ? 'messengers.whatsapp.keep' : 'messengers.whatsappBsp.passwordHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="new-password"
        value={values.password ?? ''}
        error={errors.password}
        onChange={(e) => onChange('password', e.currentTarget.value)}
      />
    </>
  );
}

/** The ids are settings (shown again), the token and secrets write-only (empty: unchanged when editing). */
function WhatsAppFields(props: OwnFieldsProps) {
  const { values, errors, onChange, editing, disabled, channel } = props;
  const { t } = useTranslation();
  if (isBsp(values)) return <BspFields {...props} />;
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
      <ProviderChoice {...props} />
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

/**
 * After creation: where Meta must send the webhooks, and with which verify token; for a business solution provider
 * the callback URL carries the key we generated (shown this once).
 */
function WhatsAppCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  if (channel.settings.provider === 'bsp')
    return (
      <CallbackCreatedModal
        channel={{
          ...channel,
          inboundUrl: `${channel.inboundUrl}?key=${encodeURIComponent(channel.inboundKey ?? '')}`,
        }}
        onClose={onClose}
        testId="whatsapp-callback-url"
        texts={{
          title: 'messengers.whatsappBsp.webhookTitle',
          text: 'messengers.whatsappBsp.webhookText',
          url: 'messengers.whatsapp.callbackUrl',
          steps: ['messengers.whatsappBsp.webhookStep1', 'messengers.whatsappBsp.webhookStep2'],
          done: 'messengers.whatsapp.done',
        }}
      />
    );
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
 * WhatsApp Business through Meta's Cloud API or a business solution provider (phone, login, password; templates
 * are the Cloud API's only: a BSP chat's DTO says `channel.templates: false` and its composer has no button). Cloud API: the phone number id, WABA id and access token are checked with
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
  required: (own) => (isBsp(own) ? BSP_REQUIRED : CLOUD_REQUIRED),
  initial: (c) => ({
    provider: c?.settings.provider === 'bsp' ? 'bsp' : 'cloud',
    phone: typeof c?.settings.phone === 'string' ? c.settings.phone : '',
    login: typeof c?.settings.login === 'string' ? c.settings.login : '',
    password: '',
    phoneNumberId: typeof c?.settings.phoneNumberId === 'string' ? c.settings.phoneNumberId : '',
    wabaId: typeof c?.settings.wabaId === 'string' ? c.settings.wabaId : '',
    accessToken: '',
    appSecret: '',
    verifyToken: '',
  }),
  Fields: WhatsAppFields,
  session: { hours: 24, templatesLabel: 'messengers.templates.button' },
  clientEdits: false,
  summary: (c) => {
    const phone = c.settings.provider === 'bsp' ? c.settings.phone : c.settings.displayPhoneNumber;
    return typeof phone === 'string' ? phone : null;
  },
  Created: WhatsAppCreated,
};
