import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream';
import { downloadMedia, mediaType } from '../download.ts';
import {
  type AdapterChannel,
  type AdapterContext,
  type MediaDownload,
  MediaError,
  type MediaRef,
} from '../types.ts';
import { callApple, credsOf } from './api.ts';

/**
 * Attachments of Messages for Business (docs/providers/apple-business.md "Attachments"): every file travels
 * encrypted with AES-256-CTR under a single-use key and an all-zero IV; the key is written in hex with a `00` prefix.
 */

/** The largest file we send or take (not documented by Apple: our choice, see the brief). */
export const APPLE_MEDIA_MAX = 100 * 1024 * 1024;
const ZERO_IV = Buffer.alloc(16);

/** `data` encrypted under a new key, and the key as Apple writes it (`00` + hex). */
export function encryptFile(data: Buffer): { encrypted: Buffer; key: string } {
  const key = randomBytes(32);
  const cipher = createCipheriv('aes-256-ctr', key, ZERO_IV);
  return { encrypted: Buffer.concat([cipher.update(data), cipher.final()]), key: `00${key.toString('hex')}` };
}

/** The AES key of Apple's hex text (`00` prefix dropped); null when it is not 32 bytes of hex. */
export function keyFromHex(text: string): Buffer | null {
  const hex = text.replace(/^00/i, '');
  if (!/^[0-9a-f]{64}$/i.test(hex)) return null;
  return Buffer.from(hex, 'hex');
}

/** What parse keeps of an attachment to fetch it later (MediaRef.ref, JSON; held in memory only: it has the key). */
export type AttachmentRef = { url: string; owner: string; signature: string; key: string };
export const attachmentRef = (a: AttachmentRef) => JSON.stringify(a);

/** A hex signature as Base64 (preDownload takes Base64); a Base64 one as it is. */
export function signatureBase64(signature: string): string {
  return /^[0-9a-f]+$/i.test(signature) && signature.length % 2 === 0
    ? Buffer.from(signature, 'hex').toString('base64')
    : signature;
}

/**
 * A received attachment: preDownload names its download URL (by the attachment's url, owner and signature), the
 * encrypted bytes are streamed from there and decrypted as they arrive.
 */
export async function fetchAppleMedia(
  ctx: AdapterContext,
  channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  let a: AttachmentRef;
  try {
    a = JSON.parse(ref.ref) as AttachmentRef;
  } catch {
    throw new MediaError('attachment reference unreadable', false);
  }
  const key = keyFromHex(a.key);
  if (!key) throw new MediaError('attachment key unreadable', false);
  const pre = await callApple<{ 'download-url'?: unknown }>(ctx, credsOf(channel), '/preDownload', {
    headers: { 'mmcs-url': a.url, 'mmcs-signature': signatureBase64(a.signature), 'mmcs-owner': a.owner },
  }).catch((err) => {
    throw new MediaError((err as Error).message, true);
  });
  if (!pre.ok) throw new MediaError(`preDownload: ${pre.message}`, pre.retryable);
  const url = pre.result['download-url'];
  if (typeof url !== 'string' || !url) throw new MediaError('preDownload named no download-url', true);
  const res = await downloadMedia(ctx, url);
  const decipher = createDecipheriv('aes-256-ctr', key, ZERO_IV);
  // Either end stopping early (ingest over the size limit, the download failing) stops the other.
  pipeline(res.body, decipher, () => undefined);
  return {
    stream: decipher,
    // CTR keeps the length: the encrypted size is the file's.
    size: res.size ?? ref.size,
    contentType: ref.contentType ?? mediaType(res.headers.get('content-type')) ?? 'application/octet-stream',
    name: ref.name,
  };
}
