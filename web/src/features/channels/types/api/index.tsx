import { TextInput } from '@mantine/core';
import { IconApi } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { ChannelKeyModal } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

function ApiFields({ values, errors, onChange, disabled }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('channels.webhookUrl')}
      description={t('channels.webhookHint')}
      required
      disabled={disabled}
      placeholder="https://example.com/smartconnect"
      value={values.webhookUrl ?? ''}
      error={errors.webhookUrl}
      onChange={(e) => onChange('webhookUrl', e.currentTarget.value)}
    />
  );
}

/** The API channel: an integrator's own system posts customer messages in and receives replies at its webhook. */
export const apiChannel: ChannelTypeUi = {
  type: 'api',
  icon: IconApi,
  guideSteps: ['channels.guide.api.step1', 'channels.guide.api.step2', 'channels.guide.api.step3'],
  required: ['webhookUrl'],
  initial: (c) => ({ webhookUrl: typeof c?.settings.webhookUrl === 'string' ? c.settings.webhookUrl : '' }),
  Fields: ApiFields,
  summary: (c) => (typeof c.settings.webhookUrl === 'string' ? c.settings.webhookUrl : null),
  Created: ({ channel, onClose }) => <ChannelKeyModal channel={channel} onClose={onClose} />,
};
