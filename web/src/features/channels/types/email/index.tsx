import { Fieldset, PasswordInput, Select, SimpleGrid, Switch, TextInput } from '@mantine/core';
import { emailUpdateFields } from '@smartconnect/contracts';
import { IconMail } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';
import { emailBody, emailFieldOf, emailInitial, keyOf, type Part } from './body.ts';

/** One server of the mailbox (§3: host, numeric port, login, password, protocol). */
function ServerFields({
  part,
  values,
  errors,
  onChange,
  editing,
  disabled,
}: OwnFieldsProps & { part: Part }) {
  const { t } = useTranslation();
  const k = (f: Parameters<typeof keyOf>[1]) => keyOf(part, f);
  const protocol = part === 'receive' ? 'IMAP' : 'SMTP';
  return (
    <Fieldset legend={t(`emailChannel.${part}`)} data-testid={`email-${part}`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('emailChannel.host')}
          required
          disabled={disabled}
          placeholder={part === 'receive' ? 'imap.example.com' : 'smtp.example.com'}
          autoComplete="off"
          value={values[k('Host')] ?? ''}
          error={errors[k('Host')]}
          onChange={(e) => onChange(k('Host'), e.currentTarget.value)}
        />
        <TextInput
          label={t('emailChannel.port')}
          required
          disabled={disabled}
          inputMode="numeric"
          placeholder={part === 'receive' ? '993' : '465'}
          value={values[k('Port')] ?? ''}
          error={errors[k('Port')]}
          onChange={(e) => onChange(k('Port'), e.currentTarget.value)}
        />
        <TextInput
          label={t('emailChannel.login')}
          required
          disabled={disabled}
          autoComplete="off"
          value={values[k('Login')] ?? ''}
          error={errors[k('Login')]}
          onChange={(e) => onChange(k('Login'), e.currentTarget.value)}
        />
        <PasswordInput
          label={t('emailChannel.password')}
          description={editing ? t('emailChannel.passwordKeep') : undefined}
          required={!editing}
          disabled={disabled}
          autoComplete="new-password"
          value={values[k('Password')] ?? ''}
          error={errors[k('Password')]}
          onChange={(e) => onChange(k('Password'), e.currentTarget.value)}
        />
        <Select
          label={t('emailChannel.protocol')}
          data={[protocol]}
          value={protocol}
          readOnly
          allowDeselect={false}
          disabled={disabled}
        />
        <Switch
          mt={{ sm: 'xl' }}
          label={t('emailChannel.secure')}
          description={t('emailChannel.secureHint')}
          disabled={disabled}
          checked={values[k('Secure')] !== 'false'}
          onChange={(e) => onChange(k('Secure'), e.currentTarget.checked ? 'true' : 'false')}
        />
      </SimpleGrid>
    </Fieldset>
  );
}

function EmailFields(props: OwnFieldsProps) {
  const { t } = useTranslation();
  const { values, errors, onChange, disabled } = props;
  return (
    <>
      <TextInput
        label={t('emailChannel.address')}
        description={t('emailChannel.addressHint')}
        required
        disabled={disabled}
        type="email"
        placeholder="support@example.com"
        value={values.address ?? ''}
        error={errors.address}
        onChange={(e) => onChange('address', e.currentTarget.value)}
      />
      <ServerFields part="receive" {...props} />
      <ServerFields part="send" {...props} />
    </>
  );
}

/** A mailbox: IMAP to receive customers' mail, SMTP to send the replies; both servers are tested when saved. */
export const emailChannel: ChannelTypeUi = {
  type: 'email',
  icon: IconMail,
  guideIntro: 'emailChannel.intro',
  guideSteps: ['emailChannel.step1', 'emailChannel.step2', 'emailChannel.step3'],
  guideNote: 'emailChannel.note',
  required: [
    'address',
    'receiveHost',
    'receivePort',
    'receiveLogin',
    'receivePassword',
    'sendHost',
    'sendPort',
    'sendLogin',
    'sendPassword',
  ],
  initial: emailInitial,
  Fields: EmailFields,
  summary: (c) => (typeof c.settings.address === 'string' ? c.settings.address : null),
  toBody: emailBody,
  fieldOf: emailFieldOf,
  updateSchema: emailUpdateFields,
  clientEdits: false,
};
