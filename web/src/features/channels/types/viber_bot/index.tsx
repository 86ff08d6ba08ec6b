import { PasswordInput, Textarea, TextInput } from '@mantine/core';
import { IconBrandViber } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

function ViberBotFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const name = channel?.settings.name;
  return (
    <>
      {typeof name === 'string' && (
        <TextInput label={t('messengers.viber.bot')} value={name} readOnly variant="filled" />
      )}
      <PasswordInput
        label={t('messengers.viber.token')}
        description={t(editing ? 'messengers.viber.tokenKeep' : 'messengers.viber.tokenHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        placeholder="4453b6ac12345678-e02c5f12174805f9-daec9cbb5448c51f"
        value={values.token ?? ''}
        error={errors.token}
        onChange={(e) => onChange('token', e.currentTarget.value)}
      />
      <Textarea
        label={t('messengers.viber.welcome')}
        description={t('messengers.viber.welcomeHint')}
        disabled={disabled}
        autosize
        minRows={2}
        maxLength={7000}
        value={values.welcomeMessage ?? ''}
        error={errors.welcomeMessage}
        onChange={(e) => onChange('welcomeMessage', e.currentTarget.value)}
      />
    </>
  );
}

/** A Viber bot: the token is checked with Viber, which then posts its callbacks to our webhook (set for it). */
export const viberBotChannel: ChannelTypeUi = {
  type: 'viber_bot',
  icon: IconBrandViber,
  guideSteps: [
    'messengers.guide.viber_bot.step1',
    'messengers.guide.viber_bot.step2',
    'messengers.guide.viber_bot.step3',
  ],
  guideNote: 'messengers.guide.viber_bot.note',
  required: ['token'],
  initial: (c) => ({
    token: '',
    welcomeMessage: typeof c?.settings.welcomeMessage === 'string' ? c.settings.welcomeMessage : '',
  }),
  Fields: ViberBotFields,
  summary: (c) =>
    typeof c.settings.uri === 'string' && c.settings.uri ? `viber://pa?chatURI=${c.settings.uri}` : null,
  clientEdits: false,
};
