import { Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { ChannelDto } from '@smartconnect/contracts';
import { IconExternalLink, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from '../../../../shared/i18n/index.ts';
import { Copyable } from '../../channel-key-modal.tsx';
import { WidgetTexts } from '../site_chat/index.tsx';
import type { ChannelTypeUi, OwnFieldsProps, OwnValues } from '../types.ts';
import { QrCode } from './qr-code.tsx';

const TEXT_FIELDS = ['title', 'subtitle', 'logo'] as const;

/** The page's address on this installation. */
const pageUrl = (slug: string) => `${window.location.origin}/c/${slug}`;

/** The address to share, to open, and as a QR code. */
function PageLink({ slug }: { slug: string }) {
  const { t } = useTranslation();
  const url = pageUrl(slug);
  return (
    <Stack gap="xs">
      <Copyable label={t('siteChat.page.link')} value={url} testId="chat-page-url" />
      <Group align="flex-start" gap="md" wrap="wrap">
        <QrCode value={url} label={t('siteChat.page.qr')} />
        <Stack gap={6} style={{ flex: '1 1 180px' }}>
          <Text size="sm">{t('siteChat.page.qrHint')}</Text>
          <Anchor href={url} target="_blank" rel="noopener" size="sm" data-testid="chat-page-open">
            <Group gap={4} wrap="nowrap" component="span">
              {t('siteChat.page.open')}
              <IconExternalLink size={14} aria-hidden />
            </Group>
          </Anchor>
        </Stack>
      </Group>
    </Stack>
  );
}

function ChatPageFields({ values, errors, onChange, disabled, channel }: OwnFieldsProps) {
  const { t } = useTranslation();
  const slug = typeof channel?.settings.slug === 'string' ? channel.settings.slug : null;
  return (
    <Stack gap="sm">
      {slug && <PageLink slug={slug} />}
      <TextInput
        label={t('siteChat.page.slug')}
        description={t('siteChat.page.slugHint', { prefix: `${window.location.origin}/c/` })}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        placeholder="acme-support"
        value={values.slug ?? ''}
        error={errors.slug}
        onChange={(e) => onChange('slug', e.currentTarget.value)}
        data-testid="chat-page-slug"
      />
      <WidgetTexts
        names={TEXT_FIELDS}
        values={values}
        errors={errors}
        onChange={onChange}
        disabled={disabled}
      />
    </Stack>
  );
}

function initial(c?: ChannelDto): OwnValues {
  const s = (c?.settings ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : '');
  return {
    slug: str('slug'),
    title: str('title'),
    subtitle: str('subtitle'),
    welcomeMessage: str('welcomeMessage'),
    logo: str('logo'),
  };
}

/** After creation: the page's address and its QR code. */
function Created({ channel, onClose }: { channel: ChannelDto; onClose: () => void }) {
  const { t } = useTranslation();
  const slug = typeof channel.settings.slug === 'string' ? channel.settings.slug : '';
  return (
    <Modal opened onClose={onClose} title={t('siteChat.page.createdTitle')} size="lg">
      <Stack>
        <PageLink slug={slug} />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('siteChat.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The chat page: a hosted full-page chat at /c/{slug}, to share as a link or a QR code (issue 34). */
export const chatPageChannel: ChannelTypeUi = {
  type: 'chat_page',
  icon: IconWorldWww,
  guideSteps: ['siteChat.page.step1', 'siteChat.page.step2', 'siteChat.page.step3'],
  guideNote: 'siteChat.page.note',
  guideIntro: 'siteChat.page.intro',
  required: [],
  initial,
  Fields: ChatPageFields,
  summary: (c) => (typeof c.settings.slug === 'string' ? `/c/${c.settings.slug}` : null),
  Created,
};
