import { ActionIcon, Button, FileButton, Group, Input, Progress, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ATTACHMENT_LIMITS, type Attachment } from '@smartconnect/contracts';
import { IconPaperclip, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../shared/i18n/index.ts';
import { UserText } from '../../shared/ui/user-text.tsx';
import { acceptedFiles, uploadFile } from '../chats/composer/upload.ts';
import type { MailingFormValues } from './form-values.ts';

type Uploading = { id: string; name: string; progress: number };
let seq = 0;

/**
 * The mailing's files: each uploads at once as the chat composer's do (POST /api/files, too big ones refused before
 * upload); an uploaded one joins the form's `attachments`, sent with the mailing.
 */
export function useMailingUploads(form: UseFormReturnType<MailingFormValues>) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Uploading[]>([]);
  const aborts = useRef(new Map<string, AbortController>());
  useEffect(
    () => () => {
      for (const a of aborts.current.values()) a.abort();
    },
    [],
  );

  const add = (incoming: File[]) => {
    const room = ATTACHMENT_LIMITS.max - form.getValues().attachments.length - pending.length;
    for (const file of acceptedFiles(incoming, room, t)) {
      const id = `u${seq++}`;
      setPending((list) => [...list, { id, name: file.name || 'file', progress: 0 }]);
      const abort = new AbortController();
      aborts.current.set(id, abort);
      uploadFile(
        file,
        (p) => setPending((list) => list.map((f) => (f.id === id ? { ...f, progress: p } : f))),
        abort.signal,
      )
        .then((attachment) => {
          form.insertListItem('attachments', attachment);
          form.clearFieldError('attachments');
          form.clearFieldError('text');
        })
        .catch((err: Error) => {
          if (err.name === 'AbortError') return;
          notifications.show({ color: 'red', message: t('conversation.uploadFailed', { name: file.name }) });
        })
        .finally(() => {
          aborts.current.delete(id);
          setPending((list) => list.filter((f) => f.id !== id));
        });
    }
  };
  const cancel = (id: string) => {
    aborts.current.get(id)?.abort();
    aborts.current.delete(id);
    setPending((list) => list.filter((f) => f.id !== id));
  };
  return { pending, add, cancel, uploading: pending.length > 0 };
}
export type MailingUploads = ReturnType<typeof useMailingUploads>;

const kb = (size: number | undefined) =>
  size == null
    ? ''
    : size < 1024 * 1024
      ? `${Math.max(1, Math.round(size / 1024))} KB`
      : `${(size / 1024 / 1024).toFixed(1)} MB`;

/** The files list with a remove button on each, and the button choosing more. */
export function AttachmentFields({
  form,
  uploads,
}: {
  form: UseFormReturnType<MailingFormValues>;
  uploads: MailingUploads;
}) {
  const { t } = useTranslation();
  const files = form.values.attachments;
  const full = files.length + uploads.pending.length >= ATTACHMENT_LIMITS.max;
  const error = form.errors.attachments;
  return (
    <Input.Wrapper
      label={t('mailings.files')}
      description={t('mailings.filesHint', { max: ATTACHMENT_LIMITS.max })}
      error={error}
    >
      <Stack gap="xs" mt={6}>
        {(files.length > 0 || uploads.pending.length > 0) && (
          <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="mailing-files">
            {files.map((f: Attachment, i) => (
              <Group key={f.url} component="li" gap="xs" wrap="nowrap" data-testid="mailing-file">
                <IconPaperclip size={16} aria-hidden style={{ flexShrink: 0 }} />
                <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere', flex: 1 }}>
                  <UserText>{f.name || f.url}</UserText>
                  {f.size != null && (
                    <Text span size="xs" c="gray.7">
                      {' '}
                      ({kb(f.size)})
                    </Text>
                  )}
                </Text>
                <ActionIcon
                  variant="subtle"
                  color="gray.7"
                  aria-label={t('mailings.removeFile', { name: f.name || f.url })}
                  onClick={() => form.removeListItem('attachments', i)}
                  data-testid="mailing-file-remove"
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
            {uploads.pending.map((f) => (
              <Group key={f.id} component="li" gap="xs" wrap="nowrap">
                <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <UserText>{f.name}</UserText>
                  </Text>
                  <Progress
                    value={f.progress * 100}
                    size="sm"
                    aria-label={t('mailings.uploading', { name: f.name })}
                  />
                </Stack>
                <ActionIcon
                  variant="subtle"
                  color="gray.7"
                  aria-label={t('mailings.removeFile', { name: f.name })}
                  onClick={() => uploads.cancel(f.id)}
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
        <FileButton onChange={(list) => uploads.add(list)} multiple disabled={full}>
          {(props) => (
            <Button
              {...props}
              variant="default"
              leftSection={<IconPaperclip size={16} aria-hidden />}
              disabled={full}
              style={{ alignSelf: 'flex-start' }}
              data-testid="mailing-attach"
            >
              {t('mailings.attach')}
            </Button>
          )}
        </FileButton>
      </Stack>
    </Input.Wrapper>
  );
}
