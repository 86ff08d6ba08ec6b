import { notifications } from '@mantine/notifications';
import { ATTACHMENT_LIMITS, type Attachment } from '@smartconnect/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../shared/i18n/index.ts';
import { acceptedFiles, uploadFile } from './upload.ts';

export type PendingFile = {
  id: string;
  name: string;
  size: number;
  progress: number;
  /** The stored file once uploaded. */
  attachment: Required<Attachment> | null;
  /** A local preview of a picture. */
  preview: string | null;
};

let seq = 0;

/**
 * Files of the message being written: each uploads at once (progress shown), too big ones are refused before
 * upload (the server checks size and type by content again); they go with the next message.
 */
export function useAttachments(chatId: string) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<PendingFile[]>([]);
  const aborts = useRef(new Map<string, AbortController>());

  const clear = useCallback((revoke = true) => {
    for (const a of aborts.current.values()) a.abort();
    aborts.current.clear();
    setFiles((list) => {
      if (revoke) for (const f of list) if (f.preview) URL.revokeObjectURL(f.preview);
      return [];
    });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another chat starts without this chat's files
  useEffect(() => () => clear(), [chatId]);

  const remove = (id: string) => {
    aborts.current.get(id)?.abort();
    aborts.current.delete(id);
    setFiles((list) => list.filter((f) => f.id !== id));
  };

  const add = (incoming: File[]) => {
    for (const file of acceptedFiles(incoming, ATTACHMENT_LIMITS.max - files.length, t)) {
      const id = `f${seq++}`;
      const preview = /^image\/(jpeg|png|gif|webp)$/.test(file.type) ? URL.createObjectURL(file) : null;
      setFiles((list) => [
        ...list,
        { id, name: file.name || 'file', size: file.size, progress: 0, attachment: null, preview },
      ]);
      const abort = new AbortController();
      aborts.current.set(id, abort);
      uploadFile(
        file,
        (p) => setFiles((list) => list.map((f) => (f.id === id ? { ...f, progress: p } : f))),
        abort.signal,
      )
        .then((attachment) =>
          setFiles((list) => list.map((f) => (f.id === id ? { ...f, progress: 1, attachment } : f))),
        )
        .catch((err: Error) => {
          if (err.name === 'AbortError') return;
          setFiles((list) => list.filter((f) => f.id !== id));
          notifications.show({ color: 'red', message: t('conversation.uploadFailed', { name: file.name }) });
        })
        .finally(() => aborts.current.delete(id));
    }
  };

  const uploading = files.some((f) => !f.attachment);
  const ready = files.flatMap((f) => (f.attachment ? [f.attachment] : []));
  return { files, add, remove, clear, uploading, ready };
}

export type Attachments = ReturnType<typeof useAttachments>;
