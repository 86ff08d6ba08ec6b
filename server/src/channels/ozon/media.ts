import { downloadedName, downloadMedia, mediaType } from '../download.ts';
import type { AdapterChannel, AdapterContext, MediaDownload, MediaRef } from '../types.ts';
import { baseUrl, credentialsOf } from './api.ts';

/**
 * Downloads a file a buyer's message links to (parse.ts contentOf). Whether Ozon's file links need the seller's
 * credentials is not documented (open question 2): our choice sends Client-Id and Api-Key only to the API's own
 * address, never to another host, so the key does not leak to whatever a message links to.
 */
export async function fetchOzonMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const creds = credentialsOf(channel);
  let own = false;
  try {
    own = new URL(ref.ref).origin === new URL(baseUrl(ctx)).origin;
  } catch {
    own = false;
  }
  const res = await downloadMedia(
    ctx,
    ref.ref,
    own ? { 'Client-Id': creds.clientId, 'Api-Key': creds.apiKey } : undefined,
  );
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType: ref.contentType ?? mediaType(res.headers.get('content-type')) ?? 'application/octet-stream',
    name: ref.name ?? downloadedName(res.headers, ref.ref),
  };
}
