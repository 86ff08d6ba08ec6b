import { PasswordInput, TextInput } from '@mantine/core';
import { IconAddressBook } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/**
 * The main account's client_id (an identifier, typed in the clear so it can be checked against the cabinet) and
 * client_secret (masked); both write-only on edit. The server checks them by taking a token.
 */
function AvitoFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const name = channel?.settings.name;
  return (
    <>
      {typeof name === 'string' && (
        <TextInput label={t('messengers.avito.account')} value={name} readOnly variant="filled" />
      )}
      <TextInput
        label={t('messengers.avito.clientId')}
        description={t(editing ? 'messengers.avito.keep' : 'messengers.avito.clientIdHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        value={values.clientId ?? ''}
        error={errors.clientId}
        onChange={(e) => onChange('clientId', e.currentTarget.value)}
      />
      <PasswordInput
        label={t('messengers.avito.clientSecret')}
        description={editing ? t('messengers.avito.keep') : undefined}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        value={values.clientSecret ?? ''}
        error={errors.clientSecret}
        onChange={(e) => onChange('clientSecret', e.currentTarget.value)}
      />
    </>
  );
}

/**
 * An Avito account through the Messenger API (issue 35): the customers' chats about the account's listings, the
 * listing shown on the chat. The server subscribes its webhook when the channel is saved.
 */
export const avitoChannel: ChannelTypeUi = {
  type: 'avito',
  icon: IconAddressBook,
  guideIntro: 'messengers.avito.intro',
  guideSteps: [
    'messengers.avito.step1',
    'messengers.avito.step2',
    'messengers.avito.step3',
    'messengers.avito.step4',
  ],
  guideNote: 'messengers.avito.note',
  required: ['clientId', 'clientSecret'],
  // Both are write-only: empty until a new one is typed.
  initial: () => ({ clientId: '', clientSecret: '' }),
  Fields: AvitoFields,
  clientEdits: false,
  summary: (c) => (typeof c.settings.name === 'string' && c.settings.name ? c.settings.name : null),
};
