import { downloadMedia } from '../download.ts';
import {
  type AdapterChannel,
  type AdapterContext,
  type MediaDownload,
  MediaError,
  type MediaRef,
} from '../types.ts';
import { callGraph, retryable } from './cloud-api.ts';

/** The Cloud API's largest media (documents: 100 MB). */
export const WHATSAPP_MEDIA_MAX = 100 * 1024 * 1024;

/**
 * Fetches an inbound media object: GET /{media-id} names a short-lived URL (5 minutes), which is downloaded with
 * the same access token (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media).
 */
export async function fetchWhatsAppMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const token = channel.secrets.accessToken ?? '';
  const meta = await callGraph<{ url?: string; mime_type?: string; file_size?: number }>(
    ctx,
    token,
    'GET',
    `/${encodeURIComponent(ref.ref)}`,
  ).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (!meta.ok) throw new MediaError(meta.message, retryable(meta));
  if (!meta.result.url) throw new MediaError('no media URL', false);
  const res = await downloadMedia(ctx, meta.result.url, { authorization: `Bearer ${token}` });
  return {
    stream: res.body,
    size: res.size ?? meta.result.file_size ?? ref.size,
    contentType:
      ref.contentType ??
      meta.result.mime_type ??
      res.headers.get('content-type') ??
      'application/octet-stream',
    name: ref.name,
  };
}
