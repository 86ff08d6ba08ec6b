import { PasswordInput, TextInput } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconBrandVk } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CallbackCreatedModal, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/**
 * The community (its id) and the Callback API's confirmation string are settings (shown again); the community
 * token and the secret key are write-only (empty: unchanged when editing).
 */
function VkBotFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const name = channel?.settings.name;
  const text = (field: string, placeholder: string, numeric = false) => (
    <TextInput
      label={t(`messengers.vk.${field}`)}
      description={t(`messengers.vk.${field}Hint`)}
      required
      disabled={disabled}
      inputMode={numeric ? 'numeric' : undefined}
      autoComplete="off"
      placeholder={placeholder}
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  const secret = (field: string) => (
    <PasswordInput
      label={t(`messengers.vk.${field}`)}
      description={t(editing ? 'messengers.vk.keep' : `messengers.vk.${field}Hint`)}
      required={!editing}
      disabled={disabled}
      autoComplete="off"
      value={values[field] ?? ''}
      error={errors[field]}
      onChange={(e) => onChange(field, e.currentTarget.value)}
    />
  );
  return (
    <>
      {typeof name === 'string' && (
        <TextInput label={t('messengers.vk.community')} value={name} readOnly variant="filled" />
      )}
      {channel && (
        <TextInput
          label={t('messengers.vk.callbackUrl')}
          value={callbackUrl(channel)}
          readOnly
          variant="filled"
          data-testid="vk-callback-url"
        />
      )}
      {secret('token')}
      {text('groupId', '218123456', true)}
      {text('confirmation', '1a2b3c4d')}
      {secret('secret')}
    </>
  );
}

/** After creation: the Callback API server to add in the community, which VK confirms with our answer. */
function VkBotCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  return (
    <CallbackCreatedModal
      channel={channel}
      onClose={onClose}
      testId="vk-callback-url"
      texts={{
        title: 'messengers.vk.serverTitle',
        text: 'messengers.vk.serverText',
        url: 'messengers.vk.callbackUrl',
        steps: ['messengers.vk.serverStep1', 'messengers.vk.serverStep2'],
        done: 'messengers.vk.done',
      }}
    />
  );
}

/**
 * A VK community bot: the admin authorises a community token (messages, photos, docs), chooses the community by
 * its id (checked with VK) and saves; VK then posts to our Callback API URL, confirmed with the string given.
 */
export const vkBotChannel: ChannelTypeUi = {
  type: 'vk_bot',
  icon: IconBrandVk,
  guideSteps: [
    'messengers.vk.guide.step1',
    'messengers.vk.guide.step2',
    'messengers.vk.guide.step3',
    'messengers.vk.guide.step4',
  ],
  guideNote: 'messengers.vk.guide.note',
  required: ['token', 'groupId', 'confirmation', 'secret'],
  initial: (c) => ({
    token: '',
    groupId: typeof c?.settings.groupId === 'string' ? c.settings.groupId : '',
    confirmation: typeof c?.settings.confirmation === 'string' ? c.settings.confirmation : '',
    secret: '',
  }),
  Fields: VkBotFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.screenName === 'string' && c.settings.screenName
      ? `vk.com/${c.settings.screenName}`
      : null,
  Created: VkBotCreated,
};
