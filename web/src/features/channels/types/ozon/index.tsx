import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconKey, IconShoppingBag } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { Copyable, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/** The push notifications address with its key (shown once, after creation) or a placeholder for it. */
const ozonPush = (c: { inboundUrl: string }, key: string) => `${callbackUrl(c)}?key=${key}`;

/**
 * The seller's Client ID (digits, typed in the clear so it can be checked against the cabinet; shown on edit) and
 * the API key (masked, write-only on edit). The server checks them with Ozon. Editing: the push address, without
 * its key (shown once, at creation).
 */
function OzonFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('messengers.ozon.clientId')}
        description={t('messengers.ozon.clientIdHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        inputMode="numeric"
        value={values.clientId ?? ''}
        error={errors.clientId}
        onChange={(e) => onChange('clientId', e.currentTarget.value)}
      />
      <PasswordInput
        label={t('messengers.ozon.apiKey')}
        description={editing ? t('messengers.ozon.keep') : t('messengers.ozon.apiKeyHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        value={values.apiKey ?? ''}
        error={errors.apiKey}
        onChange={(e) => onChange('apiKey', e.currentTarget.value)}
      />
      {editing && channel && (
        <Stack gap="xs">
          <Copyable
            label={t('messengers.ozon.pushUrl')}
            value={ozonPush(channel, '…')}
            testId="ozon-push-url"
          />
          <Text size="xs" c="gray.7">
            {t('messengers.ozon.keyShownOnce')}
          </Text>
        </Stack>
      )}
    </>
  );
}

/** Shown once after creation: the push notifications address with its key, to paste into the Ozon cabinet. */
function OzonCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('messengers.ozon.createdTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack>
        <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
          {t('messengers.ozon.createdText')}
        </Alert>
        <Copyable
          label={t('messengers.ozon.pushUrl')}
          value={ozonPush(channel, channel.inboundKey ?? '')}
          testId="ozon-push-url"
        />
        <List type="ordered" spacing="xs">
          {['messengers.ozon.pushStep1', 'messengers.ozon.pushStep2', 'messengers.ozon.pushStep3'].map(
            (step) => (
              <List.Item key={step}>
                <Text size="sm">{t(step)}</Text>
              </List.Item>
            ),
          )}
        </List>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('channels.keySaved')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * An Ozon seller's buyer chats through the Seller API (issue 35): the server reads the chats every 20 seconds, the
 * order a chat is about shown on it; push notifications, set up by the seller with the address shown once after
 * creation, bring the buyers' messages sooner.
 */
export const ozonChannel: ChannelTypeUi = {
  type: 'ozon',
  icon: IconShoppingBag,
  guideIntro: 'messengers.ozon.intro',
  guideSteps: [
    'messengers.ozon.step1',
    'messengers.ozon.step2',
    'messengers.ozon.step3',
    'messengers.ozon.step4',
    'messengers.ozon.step5',
  ],
  guideNote: 'messengers.ozon.note',
  required: ['clientId', 'apiKey'],
  // The Client ID is shown (the server presents it); the API key is write-only: empty until a new one is typed.
  initial: (c) => ({
    clientId: typeof c?.settings.clientId === 'string' ? c.settings.clientId : '',
    apiKey: '',
  }),
  Fields: OzonFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.clientId === 'string' && c.settings.clientId
      ? `Client ID ${c.settings.clientId}`
      : null,
  Created: OzonCreated,
};
