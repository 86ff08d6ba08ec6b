import { Divider, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { APNS_ENVIRONMENTS, type ChannelDto } from '@smartconnect/contracts';
import { IconDeviceMobile } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps, OwnValues } from '../types.ts';
import { IdentitySecretRotation, MobileAppCreated } from './identity-secret.tsx';

const str = (s: Record<string, unknown>, k: string) => (typeof s[k] === 'string' ? (s[k] as string) : '');

/**
 * The app's push credentials, both optional: a Firebase service account's JSON key (Android) and an APNs key with
 * its ids (iOS); the keys are write-only (empty on edit keeps them). Editing: the identity secret's rotation.
 */
function MobileAppFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const settings = (channel?.settings ?? {}) as Record<string, unknown>;
  const project = str(settings, 'fcmProjectId');
  const text = (field: string, label: string, placeholder?: string) => (
    <TextInput
      label={t(`channels.mobileApp.${label}`)}
      disabled={disabled}
      autoComplete="off"
      spellCheck={false}
      placeholder={placeholder}
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
      data-testid={`mobile-app-${field}`}
    />
  );
  return (
    <Stack gap="sm">
      {editing && channel && <IdentitySecretRotation channel={channel} disabled={disabled} />}
      <Divider label={t('channels.mobileApp.fcm')} labelPosition="left" />
      {project && (
        <Text size="sm" c="gray.7">
          {t('channels.mobileApp.fcmConnected', { project })}
        </Text>
      )}
      <Textarea
        label={t('channels.mobileApp.fcmServiceAccount')}
        description={t(editing && project ? 'channels.mobileApp.keep' : 'channels.mobileApp.fcmHint')}
        disabled={disabled}
        autosize
        minRows={3}
        maxRows={8}
        spellCheck={false}
        placeholder='{"type": "service_account", "project_id": "…", …}'
        value={values.fcmServiceAccount ?? ''}
        error={errors.fcmServiceAccount}
        onChange={(e) => onChange('fcmServiceAccount', e.currentTarget.value)}
        data-testid="mobile-app-fcmServiceAccount"
      />
      <Divider label={t('channels.mobileApp.apns')} labelPosition="left" />
      <Textarea
        label={t('channels.mobileApp.apnsKey')}
        description={t(
          editing && str(settings, 'apnsKeyId')
            ? 'channels.mobileApp.keep'
            : 'channels.mobileApp.apnsKeyHint',
        )}
        disabled={disabled}
        autosize
        minRows={3}
        maxRows={6}
        spellCheck={false}
        placeholder="-----BEGIN PRIVATE KEY-----"
        value={values.apnsKey ?? ''}
        error={errors.apnsKey}
        onChange={(e) => onChange('apnsKey', e.currentTarget.value)}
        data-testid="mobile-app-apnsKey"
      />
      {text('apnsKeyId', 'apnsKeyId', 'ABC123DEFG')}
      {text('apnsTeamId', 'apnsTeamId', 'DEF123GHIJ')}
      {text('apnsBundleId', 'apnsBundleId', 'com.example.app')}
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('channels.mobileApp.apnsEnvironment')}
        </Text>
        <SegmentedControl
          disabled={disabled}
          value={values.apnsEnvironment || 'production'}
          onChange={(v) => onChange('apnsEnvironment', v)}
          data={APNS_ENVIRONMENTS.map((e) => ({ value: e, label: t(`channels.mobileApp.${e}`) }))}
        />
      </Stack>
    </Stack>
  );
}

function initial(c?: ChannelDto): OwnValues {
  const s = (c?.settings ?? {}) as Record<string, unknown>;
  return {
    fcmServiceAccount: '',
    apnsKey: '',
    apnsKeyId: str(s, 'apnsKeyId'),
    apnsTeamId: str(s, 'apnsTeamId'),
    apnsBundleId: str(s, 'apnsBundleId'),
    apnsEnvironment: str(s, 'apnsEnvironment') || 'production',
  };
}

/** A customer's own app with our SDK (issue 34): the identity secret we make, the app's push credentials. */
export const mobileAppChannel: ChannelTypeUi = {
  type: 'mobile_app',
  icon: IconDeviceMobile,
  guideIntro: 'channels.mobileApp.intro',
  guideSteps: ['channels.mobileApp.step1', 'channels.mobileApp.step2', 'channels.mobileApp.step3'],
  guideNote: 'channels.mobileApp.note',
  required: [],
  initial,
  Fields: MobileAppFields,
  clientEdits: false,
  summary: (c) => {
    const s = c.settings as Record<string, unknown>;
    return [str(s, 'apnsBundleId'), str(s, 'fcmProjectId')].filter(Boolean).join(' · ') || null;
  },
  Created: MobileAppCreated,
};
