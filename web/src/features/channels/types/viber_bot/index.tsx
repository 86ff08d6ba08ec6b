import { Input, PasswordInput, Textarea, TextInput } from '@mantine/core';
import type { Attachment } from '@smartconnect/contracts';
import { IconBrandViber } from '@tabler/icons-react';
import { useState } from 'react';
import { post } from '../../../../shared/api/client.ts';
import { isApiError } from '../../../../shared/api/errors.ts';
import { translateError, translateField, useTranslation } from '../../../../shared/i18n/index.ts';
import { AvatarDrop } from '../../../../shared/ui/avatar-drop.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';
import { viberBotBody } from './body.ts';

/** Uploads the bot's photo as one of the organisation's files; the channel keeps its URL (checked as JPEG on save). */
async function uploadPhoto(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  return (await post<Required<Attachment>>('/api/files', form)).url;
}

/** §3 Viber: photo (jpg), shown beside the bot's messages. */
function ViberPhoto({ values, errors, onChange, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Input.Wrapper
      label={t('messengers.viber.photo')}
      description={t('messengers.viber.photoHint')}
      error={errors.photo ?? failure}
    >
      <AvatarDrop
        name={typeof channel?.settings.name === 'string' ? channel.settings.name : 'Viber'}
        photoUrl={values.photo || null}
        busy={busy || disabled}
        onFile={(file) => {
          setBusy(true);
          setFailure(null);
          uploadPhoto(file)
            .then((url) => onChange('photo', url))
            .catch((err) => {
              if (!isApiError(err)) return setFailure(translateError('unknownException'));
              const field = err.fields?.file;
              setFailure(field ? (translateField(field) ?? field) : translateError(err.code));
            })
            .finally(() => setBusy(false));
        }}
        onRemove={values.photo ? () => onChange('photo', '') : undefined}
      />
    </Input.Wrapper>
  );
}

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
      <ViberPhoto
        values={values}
        errors={errors}
        onChange={onChange}
        editing={editing}
        disabled={disabled}
        channel={channel}
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
    photo: typeof c?.settings.photo === 'string' ? c.settings.photo : '',
  }),
  toBody: viberBotBody,
  Fields: ViberBotFields,
  summary: (c) =>
    typeof c.settings.uri === 'string' && c.settings.uri ? `viber://pa?chatURI=${c.settings.uri}` : null,
  clientEdits: false,
};
