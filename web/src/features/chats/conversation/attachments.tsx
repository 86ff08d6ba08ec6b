import { Anchor, Group, Image, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Attachment } from '@smartconnect/contracts';
import { IconFileDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { UserText } from '../../../shared/ui/user-text.tsx';

const IMAGE = /^image\/(jpeg|png|gif|webp)$/;
const IMAGE_NAME = /\.(jpe?g|png|gif|webp)$/i;

export const isImage = (a: Attachment) =>
  a.contentType ? IMAGE.test(a.contentType) : IMAGE_NAME.test(a.name ?? a.url);

/** A size in bytes as people read it: 900 B, 12 KB, 3.4 MB. */
export function formatSize(bytes: number | undefined, locale: string): string {
  if (bytes === undefined) return '';
  const f = (n: number, d = 0) => new Intl.NumberFormat(locale, { maximumFractionDigits: d }).format(n);
  if (bytes < 1024) return `${f(bytes)} B`;
  if (bytes < 1024 * 1024) return `${f(bytes / 1024)} KB`;
  return `${f(bytes / 1024 / 1024, 1)} MB`;
}

/** A message's files: pictures as thumbnails that open in a lightbox, anything else as a download. */
export function Attachments({ items }: { items: Attachment[] }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<Attachment | null>(null);
  if (!items.length) return null;
  return (
    <Stack gap={6} mt={6}>
      {items.map((a) =>
        isImage(a) ? (
          <UnstyledButton
            key={a.url}
            onClick={() => setOpen(a)}
            aria-label={t('conversation.openImage', { name: a.name ?? '' })}
            data-testid="attachment-image"
            style={{ borderRadius: 8, overflow: 'hidden', maxWidth: 240 }}
          >
            <Image src={a.url} alt={a.name ?? t('conversation.image')} maw={240} mah={180} fit="cover" />
          </UnstyledButton>
        ) : (
          <Anchor
            key={a.url}
            href={a.url}
            download={a.name || true}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            data-testid="attachment-file"
            aria-label={t('conversation.download', { name: a.name ?? '' })}
          >
            <Group gap={6} wrap="nowrap">
              <IconFileDownload size={18} aria-hidden style={{ flexShrink: 0 }} />
              <Text size="sm" truncate style={{ minWidth: 0 }}>
                <UserText>{a.name || a.url}</UserText>
              </Text>
              {a.size !== undefined && (
                <Text size="xs" c="gray.7" style={{ flexShrink: 0 }}>
                  {formatSize(a.size, i18n.language)}
                </Text>
              )}
            </Group>
          </Anchor>
        ),
      )}
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title={open?.name ? <UserText>{open.name}</UserText> : t('conversation.image')}
        size="auto"
        centered
        data-testid="lightbox"
      >
        {open && (
          <Stack gap="xs" align="center">
            <img
              src={open.url}
              alt={open.name ?? t('conversation.image')}
              style={{ maxWidth: 'min(90vw, 1200px)', maxHeight: '75vh', objectFit: 'contain' }}
            />
            <Anchor href={open.url} download={open.name || true} size="sm">
              {t('conversation.download', { name: open.name ?? '' })}
            </Anchor>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
