import { type AdapterChannel, type AdapterContext, type Media, MediaError, type MediaRef } from '../types.ts';

/** VK's largest document (200 MB); photos are far smaller. */
export const VK_MEDIA_MAX = 200 * 1024 * 1024;

/** A file of a message: its URL at VK's storage (a photo size, a doc, a voice message), no token needed. */
export async function fetchVkMedia(
  _ctx: AdapterContext,
  _channel: AdapterChannel,
  ref: MediaRef,
): Promise<Media> {
  const res = await _ctx.outbound.fetch(ref.ref, { maxBytes: VK_MEDIA_MAX }).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (res.status !== 200) throw new MediaError(`HTTP ${res.status}`, res.status === 429 || res.status >= 500);
  if (res.truncated) throw new MediaError('file too big', false);
  const type = res.headers.get('content-type')?.split(';')[0];
  return {
    data: res.body,
    contentType:
      type && type !== 'application/octet-stream' ? type : (ref.contentType ?? 'application/octet-stream'),
    name: ref.name,
  };
}
