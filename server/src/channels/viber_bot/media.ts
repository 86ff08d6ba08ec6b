import { type AdapterChannel, type AdapterContext, type Media, MediaError, type MediaRef } from '../types.ts';

/** Viber's largest file (50 MB). */
export const VIBER_MEDIA_MAX = 50 * 1024 * 1024;

/** A file of a message: its `media` URL, downloadable for a while without a token. */
export async function fetchViberMedia(
  ctx: AdapterContext,
  _channel: AdapterChannel,
  ref: MediaRef,
): Promise<Media> {
  const res = await ctx.outbound.fetch(ref.ref, { maxBytes: VIBER_MEDIA_MAX }).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (res.status !== 200) throw new MediaError(`HTTP ${res.status}`, res.status === 429 || res.status >= 500);
  if (res.truncated) throw new MediaError('file too big', false);
  return {
    data: res.body,
    contentType:
      res.headers.get('content-type')?.split(';')[0] ?? ref.contentType ?? 'application/octet-stream',
    name: ref.name,
  };
}
