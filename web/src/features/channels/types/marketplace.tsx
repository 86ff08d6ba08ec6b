import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { ChannelCreatedDto, ChannelType } from '@smartconnect/contracts';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { Copyable, callbackUrl } from '../channel-key-modal.tsx';
import type { ChannelTypeUi, OwnFieldsProps, TypeIcon } from './types.ts';

/**
 * What a marketplace seller channel (Ozon, Yandex Market) is on the web: the seller's id (digits, typed in the clear
 * so it can be checked against the cabinet; shown on edit), an API key (masked, write-only on edit), and the address
 * the marketplace pushes new messages to, with its key shown once after creation. The texts are
 * `messengers.<ns>.*`; `idField` is the id's name in the channel's settings, `idLabel` its summary's words.
 */
export function marketplaceChannel(spec: {
  type: ChannelType;
  icon: TypeIcon;
  ns: string;
  idField: string;
  idLabel: string;
  testId: string;
}): ChannelTypeUi {
  const { ns, idField, testId } = spec;
  /** The push address with its key, or a placeholder for the key (it is shown once, at creation). */
  const pushUrl = (c: { inboundUrl: string }, key: string) => `${callbackUrl(c)}?key=${key}`;

  function Fields({ values, errors, onChange, editing, disabled, channel }: OwnFieldsProps) {
    const { t } = useTranslation();
    return (
      <>
        <TextInput
          label={t(`messengers.${ns}.${idField}`)}
          description={t(`messengers.${ns}.${idField}Hint`)}
          required={!editing}
          disabled={disabled}
          autoComplete="off"
          spellCheck={false}
          inputMode="numeric"
          value={values[idField] ?? ''}
          error={errors[idField]}
          onChange={(e) => onChange(idField, e.currentTarget.value)}
        />
        <PasswordInput
          label={t(`messengers.${ns}.apiKey`)}
          description={editing ? t(`messengers.${ns}.keep`) : t(`messengers.${ns}.apiKeyHint`)}
          required={!editing}
          disabled={disabled}
          autoComplete="off"
          value={values.apiKey ?? ''}
          error={errors.apiKey}
          onChange={(e) => onChange('apiKey', e.currentTarget.value)}
        />
        {editing && channel && (
          <Stack gap="xs">
            <Copyable label={t(`messengers.${ns}.pushUrl`)} value={pushUrl(channel, '…')} testId={testId} />
            <Text size="xs" c="gray.7">
              {t(`messengers.${ns}.keyShownOnce`)}
            </Text>
          </Stack>
        )}
      </>
    );
  }

  function Created({ channel, onClose }: { channel: ChannelCreatedDto; onClose: () => void }) {
    const { t } = useTranslation();
    return (
      <Modal
        opened
        onClose={onClose}
        title={t(`messengers.${ns}.createdTitle`)}
        size="lg"
        closeOnClickOutside={false}
      >
        <Stack>
          <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
            {t(`messengers.${ns}.createdText`)}
          </Alert>
          <Copyable
            label={t(`messengers.${ns}.pushUrl`)}
            value={pushUrl(channel, channel.inboundKey ?? '')}
            testId={testId}
          />
          <List type="ordered" spacing="xs">
            {['pushStep1', 'pushStep2', 'pushStep3'].map((step) => (
              <List.Item key={step}>
                <Text size="sm">{t(`messengers.${ns}.${step}`)}</Text>
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

  return {
    type: spec.type,
    icon: spec.icon,
    guideIntro: `messengers.${ns}.intro`,
    guideSteps: [1, 2, 3, 4, 5].map((n) => `messengers.${ns}.step${n}`),
    guideNote: `messengers.${ns}.note`,
    required: [idField, 'apiKey'],
    // The id is shown (the server presents it); the API key is write-only: empty until a new one is typed.
    initial: (c) => ({
      [idField]: typeof c?.settings[idField] === 'string' ? (c.settings[idField] as string) : '',
      apiKey: '',
    }),
    Fields,
    clientEdits: false,
    summary: (c) =>
      typeof c.settings[idField] === 'string' && c.settings[idField]
        ? `${spec.idLabel} ${c.settings[idField]}`
        : null,
    Created,
  };
}
