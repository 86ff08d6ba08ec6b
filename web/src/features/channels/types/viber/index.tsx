import { PasswordInput, Select, TextInput } from '@mantine/core';
import { VIBER_REGIONS } from '@smartconnect/contracts';
import { IconBrandViber } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/** The provider account (login, write-only password), the region it serves, the Viber service id and the phone. */
function ViberBusinessFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const serviceName = channel?.settings.serviceName;
  const text = (field: string, placeholder: string, inputMode?: 'tel') => (
    <TextInput
      label={t(`messengers.viberBusiness.${field}`)}
      description={t(`messengers.viberBusiness.${field}Hint`)}
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
        <TextInput
          label={t('messengers.viberBusiness.service')}
          value={serviceName}
          readOnly
          variant="filled"
        />
      )}
      <Select
        label={t('messengers.viberBusiness.region')}
        description={t('messengers.viberBusiness.regionHint')}
        required
        disabled={disabled}
        allowDeselect={false}
        data={VIBER_REGIONS.map((r) => ({ value: r, label: t(`messengers.viberBusiness.regions.${r}`) }))}
        value={values.region || null}
        error={errors.region}
        onChange={(v) => onChange('region', v ?? '')}
      />
      {text('login', 'shop-login')}
      <PasswordInput
        label={t('messengers.viberBusiness.password')}
        description={t(editing ? 'messengers.viberBusiness.keep' : 'messengers.viberBusiness.passwordHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="new-password"
        value={values.password ?? ''}
        error={errors.password}
        onChange={(e) => onChange('password', e.currentTarget.value)}
      />
      {text('serviceId', 'shop_viber_01')}
      {text('phone', '+7 495 123-45-67', 'tel')}
    </>
  );
}

const setting = (c: { settings: Record<string, unknown> } | undefined, f: string) =>
  typeof c?.settings[f] === 'string' ? (c.settings[f] as string) : '';

/**
 * Viber business messages through a regional delivery provider (Russia, Belarus): the account is checked with the
 * provider, which then posts replies and delivery reports to our webhook (registered by us).
 */
export const viberBusinessChannel: ChannelTypeUi = {
  type: 'viber',
  icon: IconBrandViber,
  guideIntro: 'messengers.viberBusiness.intro',
  guideSteps: [
    'messengers.viberBusiness.step1',
    'messengers.viberBusiness.step2',
    'messengers.viberBusiness.step3',
  ],
  guideNote: 'messengers.viberBusiness.note',
  required: ['region', 'login', 'password', 'serviceId', 'phone'],
  initial: (c) => ({
    region: setting(c, 'region') || 'ru',
    login: setting(c, 'login'),
    password: '',
    serviceId: setting(c, 'serviceId'),
    phone: setting(c, 'phone'),
  }),
  Fields: ViberBusinessFields,
  summary: (c) => {
    const phone = setting(c, 'phone');
    return phone ? `${phone} · ${setting(c, 'serviceId')}` : null;
  },
  clientEdits: false,
};
