import { PasswordInput, Radio, Stack, TextInput } from '@mantine/core';
import { addressTakesWebhooks, TELEGRAM_UPDATES_VIA } from '@smartconnect/contracts';
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
      <Radio.Group
        label={t('channels.telegram.updatesVia')}
        value={values.updatesVia ?? 'webhook'}
        onChange={(v) => onChange('updatesVia', v)}
        error={errors.updatesVia}
      >
        <Stack gap="xs" mt={6}>
          {TELEGRAM_UPDATES_VIA.map((way) => (
            <Radio
              key={way}
              value={way}
              disabled={disabled}
              label={t(`channels.telegram.${way}`)}
              description={t(`channels.telegram.${way}Hint`)}
              data-testid={`telegram-updates-${way}`}
            />
          ))}
        </Stack>
      </Radio.Group>
    </>
  );
}

/**
 * A Telegram bot: the token from @BotFather is checked with Telegram, which then posts updates to our webhook, or
 * our server asks for them (polling: behind a firewall). A new channel starts from polling when the address the
 * admin uses does not look public (the server applies the same rule to PUBLIC_URL when the API caller omits it).
 */
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
  initial: (channel) => ({
    token: '',
    updatesVia: channel
      ? String(channel.settings.updatesVia ?? 'webhook')
      : addressTakesWebhooks(window.location.origin)
        ? 'webhook'
        : 'polling',
  }),
  Fields: TelegramFields,
  summary: (c) => (typeof c.settings.username === 'string' ? `@${c.settings.username}` : null),
};
