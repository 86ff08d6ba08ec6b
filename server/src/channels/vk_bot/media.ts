import { downloadMedia, mediaType } from '../download.ts';
import type { AdapterChannel, AdapterContext, MediaDownload, MediaRef } from '../types.ts';

/** VK's largest document (200 MB); photos are far smaller. */
export const VK_MEDIA_MAX = 200 * 1024 * 1024;

/** A file of a message: its URL at VK's storage (a photo size, a doc, a voice message), no token needed. */
export async function fetchVkMedia(
  ctx: AdapterContext,
  _channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const res = await downloadMedia(ctx, ref.ref);
  const type = mediaType(res.headers.get('content-type'));
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType:
      type && type !== 'application/octet-stream' ? type : (ref.contentType ?? 'application/octet-stream'),
    name: ref.name,
  };
}
