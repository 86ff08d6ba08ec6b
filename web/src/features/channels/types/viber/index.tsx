import {
  Alert,
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { type ChannelCreatedDto, VIBER_REGIONS } from '@smartconnect/contracts';
import { IconBrandViber, IconInfoCircle, IconKey } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { Copyable, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps, OwnValues } from '../types.ts';

const K = 'messengers.viberBusiness';

/** Devino's reply address with its key (shown once, after creation) or a placeholder for it. */
const replyAddress = (c: { inboundUrl: string }, key: string) => `${callbackUrl(c)}?key=${key}`;

/**
 * The region (Russia: Devino Telecom, Belarus: SMS.by), the provider account (login, write-only password: SMS.by's
 * API key), the Viber sender and the phone; for Russia the SMS fallback with its SMS sender name, under a note on
 * Viber's restriction there.
 */
function ViberBusinessFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const serviceName = channel?.settings.serviceName;
  const russia = values.region !== 'by';
  const text = (field: string, placeholder: string, inputMode?: 'tel') => (
    <TextInput
      label={t(`${K}.${field}`)}
      description={t(`${K}.${field}Hint`)}
      required
      disabled={disabled}
      autoComplete="off"
      inputMode={inputMode}
      placeholder={placeholder}
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  return (
    <>
      {typeof serviceName === 'string' && (
        <TextInput label={t(`${K}.service`)} value={serviceName} readOnly variant="filled" />
      )}
      <Select
        label={t(`${K}.region`)}
        description={t(`${K}.regionHint`)}
        required
        disabled={disabled}
        allowDeselect={false}
        data={VIBER_REGIONS.map((r) => ({ value: r, label: t(`${K}.regions.${r}`) }))}
        value={values.region || null}
        error={errors.region}
        onChange={(v) => onChange('region', v ?? '')}
      />
      {text('login', russia ? 'shop-login' : 'shop@example.by')}
      <PasswordInput
        label={t(`${K}.password`)}
        description={t(editing ? `${K}.keep` : russia ? `${K}.passwordHint` : `${K}.passwordHintBy`)}
        required={!editing}
        disabled={disabled}
        autoComplete="new-password"
        value={values.password ?? ''}
        error={errors.password}
        onChange={(e) => onChange('password', e.currentTarget.value)}
      />
      {text('serviceId', russia ? 'MyShop' : '444')}
      {text('phone', russia ? '+7 495 123-45-67' : '+375 29 123-45-67', 'tel')}
      {russia ? (
        <Stack gap="xs">
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
            {t(`${K}.restriction`)}
          </Alert>
          <Switch
            label={t(`${K}.smsFallback`)}
            description={t(`${K}.smsFallbackHint`)}
            disabled={disabled}
            checked={values.smsFallback === 'on'}
            onChange={(e) => onChange('smsFallback', e.currentTarget.checked ? 'on' : '')}
          />
          {values.smsFallback === 'on' && (
            <TextInput
              label={t(`${K}.smsSender`)}
              description={t(`${K}.smsSenderHint`)}
              required
              disabled={disabled}
              autoComplete="off"
              placeholder="MyShop"
              value={values.smsSender ?? ''}
              error={errors.smsSender}
              onChange={(e) => onChange('smsSender', e.currentTarget.value)}
            />
          )}
          {editing && channel && (
            <Copyable
              label={t(`${K}.replyUrl`)}
              value={replyAddress(channel, '…')}
              testId="viber-reply-url"
            />
          )}
        </Stack>
      ) : (
        <Text size="sm" c="gray.7">
          {t(`${K}.belarusOutOnly`)}
        </Text>
      )}
    </>
  );
}

/** Shown once after creation: for Russia the reply address with its key, to give to Devino's support. */
function ViberBusinessCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  const { t } = useTranslation();
  const russia = channel.settings.region !== 'by';
  return (
    <Modal opened onClose={onClose} title={t(`${K}.createdTitle`)} size="lg" closeOnClickOutside={false}>
      <Stack>
        {russia ? (
          <>
            <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
              {t(`${K}.createdText`)}
            </Alert>
            <Copyable
              label={t(`${K}.replyUrl`)}
              value={replyAddress(channel, channel.inboundKey ?? '')}
              testId="viber-reply-url"
            />
          </>
        ) : (
          <Text size="sm">{t(`${K}.belarusOutOnly`)}</Text>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('channels.keySaved')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

const setting = (c: { settings: Record<string, unknown> } | undefined, f: string) =>
  typeof c?.settings[f] === 'string' ? (c.settings[f] as string) : '';

/** The form's strings as the API takes them: the fallback switch as a boolean, its sender only when it is on. */
function viberBusinessBody(own: OwnValues, initialOwn?: OwnValues): Record<string, unknown> {
  const changed = (k: string) => (initialOwn ? own[k] !== initialOwn[k] : true);
  const body: Record<string, unknown> = {};
  for (const k of ['region', 'login', 'password', 'serviceId', 'phone'])
    if ((own[k] ?? '').trim() !== '' && changed(k)) body[k] = own[k];
  const fallback = own.region !== 'by' && own.smsFallback === 'on';
  if (changed('smsFallback') || changed('region') || (fallback && changed('smsSender'))) {
    body.smsFallback = fallback;
    if (fallback && (own.smsSender ?? '').trim()) body.smsSender = own.smsSender;
  }
  return body;
}

/**
 * Viber business messages through the region's provider (DECISIONS.md "Regional Viber providers"): Russia through
 * Devino Telecom (replies to the address shown once, statuses polled, the SMS fallback), Belarus through SMS.by
 * (messages out only). The guide says where each provider's credentials are and what Viber's restriction in Russia
 * means for delivery.
 */
export const viberBusinessChannel: ChannelTypeUi = {
  type: 'viber',
  icon: IconBrandViber,
  guideIntro: `${K}.intro`,
  guideSteps: [`${K}.step1`, `${K}.step2`, `${K}.step3`, `${K}.step4`],
  guideNote: `${K}.note`,
  required: (own) => [
    'region',
    'login',
    'password',
    'serviceId',
    'phone',
    ...(own.smsFallback === 'on' && own.region !== 'by' ? ['smsSender'] : []),
  ],
  initial: (c) => ({
    region: setting(c, 'region') || 'ru',
    login: setting(c, 'login'),
    password: '',
    serviceId: setting(c, 'serviceId'),
    phone: setting(c, 'phone'),
    smsFallback: c?.settings.smsFallback === true ? 'on' : '',
    smsSender: setting(c, 'smsSender'),
  }),
  toBody: viberBusinessBody,
  Fields: ViberBusinessFields,
  Created: ViberBusinessCreated,
  summary: (c) => {
    const phone = setting(c, 'phone');
    return phone ? `${phone} · ${setting(c, 'serviceId')}` : null;
  },
  clientEdits: false,
};
