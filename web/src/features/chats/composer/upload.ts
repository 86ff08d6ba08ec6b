import { notifications } from '@mantine/notifications';
import { ATTACHMENT_MAX_BYTES, type Attachment } from '@smartconnect/contracts';
import type { TFunction } from '../../../shared/i18n/translator.ts';
import { getToken } from '../../../shared/storage.ts';

/** Uploads one file to POST /api/files with progress (fetch cannot report it); resolves with the attachment to send. */
export function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<Required<Attachment>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/files');
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { entity?: Required<Attachment>; error?: { code?: string } } | null;
      if (xhr.status === 200 && body?.entity) resolve(body.entity);
      else reject(new Error(body?.error?.code ?? `status ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/**
 * The files of a pick that may be uploaded: at most `room` of them, each within the size limit; a file too big is
 * named in a notice (the chat composer's and the mailing form's rule).
 */
export function acceptedFiles(incoming: File[], room: number, t: TFunction): File[] {
  return incoming.slice(0, Math.max(0, room)).filter((file) => {
    if (file.size <= ATTACHMENT_MAX_BYTES) return true;
    notifications.show({
      color: 'red',
      message: t('conversation.tooBig', { name: file.name, max: ATTACHMENT_MAX_BYTES / 1024 / 1024 }),
    });
    return false;
  });
}
