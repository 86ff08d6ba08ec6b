import { downloadMedia, mediaType } from '../download.ts';
import type { AdapterChannel, AdapterContext, MediaDownload, MediaRef } from '../types.ts';

/** Viber's largest file (50 MB). */
export const VIBER_MEDIA_MAX = 50 * 1024 * 1024;

/** A file of a message: its `media` URL, downloadable for a while without a token. */
export async function fetchViberMedia(
  ctx: AdapterContext,
  _channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const res = await downloadMedia(ctx, ref.ref);
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType: mediaType(res.headers.get('content-type')) ?? ref.contentType ?? 'application/octet-stream',
    name: ref.name,
  };
}
