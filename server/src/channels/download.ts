import { parse as parseDisposition } from 'content-disposition';
import type { OutboundStream } from '../lib/outbound.ts';
import {
  type AdapterChannel,
  type AdapterContext,
  type MediaDownload,
  MediaError,
  type MediaRef,
} from './types.ts';

/**
 * GETs a provider's file as a stream (adapters' fetchMedia): an unreachable provider or a 429/5xx answer may give it
 * later (a retryable MediaError), any other answer than 200 never will. The body is left unread for ingest.
 */
export async function downloadMedia(
  ctx: AdapterContext,
  url: string,
  headers?: Record<string, string>,
): Promise<OutboundStream> {
  const res = await ctx.outbound.stream(url, { headers }).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (res.status !== 200) {
    res.body.destroy();
    throw new MediaError(`HTTP ${res.status}`, res.status === 429 || res.status >= 500);
  }
  return res;
}

/** Extensions of the media types providers send files as, for a file whose name the provider does not tell. */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/amr': 'amr',
  'audio/wav': 'wav',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/quicktime': 'mov',
  'application/pdf': 'pdf',
};

/** `base` with the extension of the media type (`voice.ogg`, `image.png`); undefined for a type not listed. */
export const nameForType = (base: string, contentType: string | undefined): string | undefined => {
  const ext = EXTENSIONS[mediaType(contentType) ?? ''];
  return ext ? `${base}.${ext}` : undefined;
};

/** A Content-Type header's media type without its parameters, when it names one. */
export const mediaType = (header: string | null | undefined) => header?.split(';')[0]?.trim() || undefined;

/**
 * A downloaded file's own name: the answer's Content-Disposition filename (RFC 6266, `filename*` first), else the
 * URL's last path segment when it looks like a file name (has an extension); undefined when neither tells one.
 */
export function downloadedName(headers: Headers, url: string): string | undefined {
  const header = headers.get('content-disposition');
  if (header) {
    try {
      const name = parseDisposition(header).parameters.filename?.trim();
      if (name) return name.split(/[\\/]/).pop();
    } catch {
      // A malformed header names nothing; the URL may.
    }
  }
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    const name = decodeURIComponent(last);
    return /^[^.].*\.[A-Za-z0-9]{1,8}$/.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A provider file at a public URL that needs no credentials (VK's storage, Avito's images): streamed with its
 * content type from the answer's header, else the one the provider named.
 */
export async function fetchPublicMedia(
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
