import { type AdapterChannel, type AdapterContext, type Media, MediaError, type MediaRef } from '../types.ts';
import { callBot, downloadFile } from './bot-api.ts';

/** Fetches a file by its file_id: getFile names its path, which is then downloaded (the path expires after an hour). */
export async function fetchTelegramMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<Media> {
  const token = channel.secrets.token ?? '';
  const file = await callBot<{ file_path?: string }>(ctx, token, 'getFile', { file_id: ref.ref }).catch(
    (err) => {
      throw new MediaError((err as Error).message, true);
    },
  );
  if (!file.ok) throw new MediaError(file.description, file.status === 429 || file.status >= 500);
  if (!file.result.file_path) throw new MediaError('no file path', false);
  const res = await downloadFile(ctx, token, file.result.file_path).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (res.status !== 200) throw new MediaError(`HTTP ${res.status}`, res.status >= 500);
  if (res.truncated) throw new MediaError('file too big', false);
  return {
    data: res.body,
    contentType: ref.contentType ?? res.headers.get('content-type') ?? 'application/octet-stream',
    name: ref.name,
  };
}
