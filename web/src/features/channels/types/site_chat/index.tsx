import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import type { ChannelDto } from '@smartconnect/contracts';
import { IconMessages } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import type { ChannelTypeUi, OwnFieldsProps, OwnValues } from '../types.ts';
import { WidgetSnippet } from './snippet.tsx';

const TEXT_FIELDS = ['title', 'subtitle', 'initialTitle', 'logo'] as const;

/**
 * The widget's text settings (site chat and chat page): the named one-line texts, then the welcome message.
 */
export function WidgetTexts({
  names,
  values,
  errors,
  onChange,
  disabled,
}: Pick<OwnFieldsProps, 'values' | 'errors' | 'onChange' | 'disabled'> & { names: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <>
      {names.map((f) => (
        <TextInput
          key={f}
          label={t(`siteChat.fields.${f}`)}
          disabled={disabled}
          placeholder={f === 'logo' ? 'https://example.com/logo.png' : undefined}
          value={values[f] ?? ''}
          error={errors[f]}
          onChange={(e) => onChange(f, e.currentTarget.value)}
        />
      ))}
      <Textarea
        label={t('siteChat.fields.welcomeMessage')}
        disabled={disabled}
        autosize
        minRows={2}
        value={values.welcomeMessage ?? ''}
        error={errors.welcomeMessage}
        onChange={(e) => onChange('welcomeMessage', e.currentTarget.value)}
      />
    </>
  );
}

function SiteChatFields({ values, errors, onChange, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {channel && <WidgetSnippet channelId={channel.id} />}
      <WidgetTexts
        names={TEXT_FIELDS}
        values={values}
        errors={errors}
        onChange={onChange}
        disabled={disabled}
      />
      <Select
        label={t('siteChat.fields.display')}
        disabled={disabled}
        allowDeselect={false}
        data={(['closed', 'open', 'initial'] as const).map((v) => ({
          value: v,
          label: t(`siteChat.display.${v}`),
        }))}
        value={values.display || 'closed'}
        error={errors.display}
        onChange={(v) => onChange('display', v ?? 'closed')}
      />
      <Textarea
        label={t('siteChat.fields.channelList')}
        description={t('siteChat.fields.channelListHint')}
        disabled={disabled}
        autosize
        minRows={2}
        placeholder="Telegram https://t.me/example"
        value={values.channelList ?? ''}
        error={errors.channelList ?? Object.entries(errors).find(([k]) => k.startsWith('channelList.'))?.[1]}
        onChange={(e) => onChange('channelList', e.currentTarget.value)}
      />
    </Stack>
  );
}

function initial(c?: ChannelDto): OwnValues {
  const s = (c?.settings ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : '');
  const list = Array.isArray(s.channelList) ? (s.channelList as { name: string; url: string }[]) : [];
  return {
    title: str('title'),
    subtitle: str('subtitle'),
    welcomeMessage: str('welcomeMessage'),
    logo: str('logo'),
    initialTitle: str('initialTitle'),
    display: str('display') || 'closed',
    channelList: list.map((l) => `${l.name} ${l.url}`).join('\n'),
  };
}

/** After creation: the tag to put on the site. */
function Created({ channel, onClose }: { channel: ChannelDto; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened onClose={onClose} title={t('siteChat.createdTitle')} size="lg">
      <Stack>
        <WidgetSnippet channelId={channel.id} />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('siteChat.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The site chat: a widget on the organisation's own site, installed with one script tag. */
export const siteChatChannel: ChannelTypeUi = {
  type: 'site_chat',
  icon: IconMessages,
  guideSteps: ['siteChat.guide.step1', 'siteChat.guide.step2', 'siteChat.guide.step3'],
  guideNote: 'siteChat.guide.note',
  required: [],
  initial,
  Fields: SiteChatFields,
  summary: (c) => (typeof c.settings.title === 'string' && c.settings.title ? c.settings.title : null),
  Created,
};
