import { PasswordInput, TextInput } from '@mantine/core';
import { IconBrandVk } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/** The community's id and a community token; the server turns the Long Poll API on and reads it. */
function VkFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const name = channel?.settings.name;
  return (
    <>
      {typeof name === 'string' && (
        <TextInput label={t('messengers.vk.community')} value={name} readOnly variant="filled" />
      )}
      <PasswordInput
        label={t('messengers.vk.token')}
        description={t(editing ? 'messengers.vk.keep' : 'messengers.vkLongPoll.tokenHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        value={values.token ?? ''}
        error={errors.token}
        onChange={(e) => onChange('token', e.currentTarget.value)}
      />
      <TextInput
        label={t('messengers.vk.groupId')}
        description={t('messengers.vk.groupIdHint')}
        required
        disabled={disabled || editing}
        inputMode="numeric"
        autoComplete="off"
        placeholder="218123456"
        value={values.groupId ?? ''}
        error={errors.groupId}
        onChange={(e) => onChange('groupId', e.currentTarget.value)}
      />
    </>
  );
}

/**
 * A VK community through the Bots Long Poll API: no public address is needed (the server asks VK for new messages),
 * so it suits an installation behind a firewall; the community bot (`vk_bot`) is the Callback API way.
 */
export const vkChannel: ChannelTypeUi = {
  type: 'vk',
  icon: IconBrandVk,
  guideIntro: 'messengers.vkLongPoll.intro',
  guideSteps: [
    'messengers.vkLongPoll.step1',
    'messengers.vkLongPoll.step2',
    'messengers.vkLongPoll.step3',
    'messengers.vkLongPoll.step4',
  ],
  guideNote: 'messengers.vkLongPoll.note',
  required: ['token', 'groupId'],
  initial: (c) => ({
    token: '',
    groupId: typeof c?.settings.groupId === 'string' ? c.settings.groupId : '',
  }),
  Fields: VkFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.screenName === 'string' && c.settings.screenName
      ? `vk.com/${c.settings.screenName}`
      : null,
};
