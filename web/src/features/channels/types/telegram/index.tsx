import { PasswordInput, TextInput } from '@mantine/core';
import { IconBrandTelegram } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

function TelegramFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const username = channel?.settings.username;
  return (
    <>
      {typeof username === 'string' && (
        <TextInput label={t('channels.telegram.bot')} value={`@${username}`} readOnly variant="filled" />
      )}
      <PasswordInput
        label={t('channels.telegram.token')}
        description={t(editing ? 'channels.telegram.tokenKeep' : 'channels.telegram.tokenHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        placeholder="123456789:AA..."
        value={values.token ?? ''}
        error={errors.token}
        onChange={(e) => onChange('token', e.currentTarget.value)}
      />
    </>
  );
}

/** A Telegram bot: the token from @BotFather is checked with Telegram, which then posts updates to our webhook. */
export const telegramChannel: ChannelTypeUi = {
  type: 'telegram',
  icon: IconBrandTelegram,
  guideSteps: [
    'channels.guide.telegram.step1',
    'channels.guide.telegram.step2',
    'channels.guide.telegram.step3',
    'channels.guide.telegram.step4',
  ],
  guideNote: 'channels.guide.telegram.note',
  required: ['token'],
  // The token is write-only: never shown again, empty means unchanged.
  initial: () => ({ token: '' }),
  Fields: TelegramFields,
  summary: (c) => (typeof c.settings.username === 'string' ? `@${c.settings.username}` : null),
};
