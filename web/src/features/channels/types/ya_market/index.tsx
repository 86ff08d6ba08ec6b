import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { ChannelCreatedDto } from '@smartconnect/contracts';
import { IconBuildingStore, IconKey } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { Copyable, callbackUrl } from '../../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps } from '../types.ts';

/** The API notifications address with its key (shown once, after creation) or a placeholder for it. */
const notificationsUrl = (c: { inboundUrl: string }, key: string) => `${callbackUrl(c)}?key=${key}`;

/**
 * The cabinet's business ID (digits, typed in the clear so it can be checked against the cabinet; shown on edit)
 * and the Api-Key token (masked, write-only on edit). The server checks them with Yandex Market. Editing: the
 * notifications address, without its key (shown once, at creation).
 */
function YaMarketFields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput
        label={t('messengers.ya_market.businessId')}
        description={t('messengers.ya_market.businessIdHint')}
        required={!editing}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        inputMode="numeric"
        value={values.businessId ?? ''}
        error={errors.businessId}
        onChange={(e) => onChange('businessId', e.currentTarget.value)}
      />
      <PasswordInput
        label={t('messengers.ya_market.apiKey')}
        description={editing ? t('messengers.ya_market.keep') : t('messengers.ya_market.apiKeyHint')}
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
            label={t('messengers.ya_market.pushUrl')}
            value={notificationsUrl(channel, '…')}
            testId="ya-market-push-url"
          />
          <Text size="xs" c="gray.7">
            {t('messengers.ya_market.keyShownOnce')}
          </Text>
        </Stack>
      )}
    </>
  );
}

/** Shown once after creation: the API notifications address with its key, to enter in the Market cabinet. */
function YaMarketCreated({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('messengers.ya_market.createdTitle')}
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack>
        <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
          {t('messengers.ya_market.createdText')}
        </Alert>
        <Copyable
          label={t('messengers.ya_market.pushUrl')}
          value={notificationsUrl(channel, channel.inboundKey ?? '')}
          testId="ya-market-push-url"
        />
        <List type="ordered" spacing="xs">
          {[
            'messengers.ya_market.pushStep1',
            'messengers.ya_market.pushStep2',
            'messengers.ya_market.pushStep3',
          ].map((step) => (
            <List.Item key={step}>
              <Text size="sm">{t(step)}</Text>
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('channels.keySaved')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A Yandex Market cabinet's buyer chats through the Partner API (issue 35): the server reads the chats every 30
 * seconds, the order a chat is about shown on it; API notifications, set up by the seller with the address shown
 * once after creation, bring the buyers' messages sooner.
 */
export const yaMarketChannel: ChannelTypeUi = {
  type: 'ya_market',
  icon: IconBuildingStore,
  guideIntro: 'messengers.ya_market.intro',
  guideSteps: [
    'messengers.ya_market.step1',
    'messengers.ya_market.step2',
    'messengers.ya_market.step3',
    'messengers.ya_market.step4',
    'messengers.ya_market.step5',
  ],
  guideNote: 'messengers.ya_market.note',
  required: ['businessId', 'apiKey'],
  // The business ID is shown (the server presents it); the Api-Key is write-only: empty until a new one is typed.
  initial: (c) => ({
    businessId: typeof c?.settings.businessId === 'string' ? c.settings.businessId : '',
    apiKey: '',
  }),
  Fields: YaMarketFields,
  clientEdits: false,
  summary: (c) =>
    typeof c.settings.businessId === 'string' && c.settings.businessId
      ? `Business ID ${c.settings.businessId}`
      : null,
  Created: YaMarketCreated,
};
