import { downloadMedia, mediaType } from '../download.ts';
import {
  type AdapterChannel,
  type AdapterContext,
  type MediaDownload,
  MediaError,
  type MediaRef,
} from '../types.ts';
import { baseUrl, callBot } from './bot-api.ts';

/** The Bot API's largest download for bots (20 MB; getFile refuses larger files). */
export const TELEGRAM_DOWNLOAD_MAX = 20 * 1024 * 1024;

/** Fetches a file by its file_id: getFile names its path, which is then downloaded (the path expires after an hour). */
export async function fetchTelegramMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const token = channel.secrets.token ?? '';
  const file = await callBot<{ file_path?: string; file_size?: number }>(ctx, token, 'getFile', {
    file_id: ref.ref,
  }).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (!file.ok) throw new MediaError(file.description, file.status === 429 || file.status >= 500);
  if (!file.result.file_path) throw new MediaError('no file path', false);
  const res = await downloadMedia(ctx, `${baseUrl(ctx)}/file/bot${token}/${file.result.file_path}`);
  return {
    stream: res.body,
    size: res.size ?? file.result.file_size ?? ref.size,
    contentType: ref.contentType ?? mediaType(res.headers.get('content-type')) ?? 'application/octet-stream',
    name: ref.name,
  };
}
