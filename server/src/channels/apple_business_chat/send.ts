import { createHash, randomUUID } from 'node:crypto';
import { mediaType } from '../download.ts';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { type AppleFailure, type Creds, callApple, credsOf, uploadTo } from './api.ts';
import { APPLE_MEDIA_MAX, encryptFile } from './media.ts';

/** Longest text of one message: Apple documents none ("no predetermined maximum"); our choice, see the brief. */
export const APPLE_TEXT_LIMIT = 10_000;
/** The Business Chat extension every Messages for Business interactive message names (brief "List picker"). */
export const BUSINESS_EXTENSION_BID =
  'com.apple.messages.MSMessageExtensionBalloonPlugin:0000000000:com.apple.icloud.apps.messages.business.extension';
/** Where an attachment sits in a message's text (Apple's sample: "Here's the attachment: \uFFFC"). */
const OBJECT_REPLACEMENT = '\uFFFC';
/** The list picker bubble's title: a short line (Apple's bubbles show about this much). */
const TITLE_MAX = 85;

const failed = (f: AppleFailure): SendResult => ({
  ok: false,
  retryable: f.retryable,
  error: f.message,
  ...(f.retryAfterMs !== undefined ? { retryAfterMs: f.retryAfterMs } : {}),
  ...(f.tokenRefused ? { tokenRefused: true } : {}),
});

/**
 * The id of one part of a delivery, the same on every attempt (a UUID made from the outbox row and the part's
 * number): a part Apple took before a later part failed goes again under the same id when the delivery is retried.
 */
export function partId(deliveryId: string, part: number): string {
  const h = createHash('sha256').update(`${deliveryId}:${part}`).digest('hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type AppleAttachment = Record<string, string>;

/**
 * One stored file encrypted and uploaded (preUpload with its encrypted size, then the bytes to the upload URL): the
 * attachment dictionary of a message, or null when the file is not ours or too large (sent as a link instead).
 */
async function uploadAttachment(
  ctx: AdapterContext,
  channel: AdapterChannel,
  creds: Creds,
  a: OutboundMessage['attachments'][number],
): Promise<{ ok: true; attachment: AppleAttachment } | AppleFailure | null> {
  const stored = await ctx.readFile(channel.organisationId, a.url);
  if (!stored || stored.data.length > APPLE_MEDIA_MAX) return null;
  const { encrypted, key } = encryptFile(stored.data);
  const pre = await callApple<Record<string, unknown>>(ctx, creds, '/preUpload', {
    headers: { 'mmcs-size': String(encrypted.length) },
  });
  if (!pre.ok) return pre;
  const { 'upload-url': uploadUrl, 'mmcs-url': mmcsUrl, 'mmcs-owner': owner } = pre.result;
  if (typeof uploadUrl !== 'string' || typeof mmcsUrl !== 'string' || typeof owner !== 'string')
    return { ok: false, status: 200, message: 'preUpload named no upload-url', retryable: true };
  const up = await uploadTo(ctx, uploadUrl, encrypted);
  if (!up.ok) return up;
  const checksum = up.result.singleFile?.fileChecksum;
  if (typeof checksum !== 'string' || !checksum)
    return { ok: false, status: 200, message: 'upload named no fileChecksum', retryable: true };
  const attachment = {
    name: a.name ?? 'file',
    mimeType: mediaType(a.contentType ?? stored.contentType) ?? 'application/octet-stream',
    size: String(encrypted.length),
    'signature-base64': checksum,
    url: mmcsUrl,
    owner,
    key,
  };
  return { ok: true, attachment };
}

/** Our postback buttons as a list picker (one section, one item each: its identifier the button's payload). */
export function listPicker(
  text: string,
  buttons: OutboundMessage['buttons'],
): Record<string, unknown> | null {
  const postbacks = buttons.flat().filter((b): b is { text: string; payload: string } => 'payload' in b);
  if (!postbacks.length) return null;
  const firstLine = text.trim().split('\n')[0] ?? '';
  const title = (firstLine.length > TITLE_MAX ? `${firstLine.slice(0, TITLE_MAX - 1)}…` : firstLine) || '…';
  return {
    bid: BUSINESS_EXTENSION_BID,
    data: {
      version: '1.0',
      requestIdentifier: createHash('sha256').update(JSON.stringify(postbacks)).digest('hex').slice(0, 32),
      listPicker: {
        sections: [
          {
            title,
            order: 0,
            multipleSelection: false,
            items: postbacks.map((b, order) => ({
              identifier: b.payload,
              title: b.text,
              order,
              style: 'default',
            })),
          },
        ],
      },
    },
    receivedMessage: { style: 'icon', title },
    replyMessage: { style: 'icon', title },
  };
}

/**
 * Renders one of our messages as /message calls: the files (encrypted and uploaded) ride on the first text part,
 * marked with U+FFFC; the text split past 10 000 characters; link buttons appended as links (a list picker has no
 * link item); postback buttons as a list picker after the text. Apple cannot edit a sent message. A bot's message
 * says so (auto-reply). The id of the first part is kept.
 */
export async function sendApple(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Apple Messages for Business does not edit sent messages' };
  const creds = credsOf(channel);
  const links: string[] = [];
  const files: AppleAttachment[] = [];
  try {
    for (const a of m.attachments) {
      const up = await uploadAttachment(ctx, channel, creds, a);
      if (up === null) links.push(a.url.startsWith('/') ? `${ctx.publicUrl}${a.url}` : a.url);
      else if (!up.ok) return failed(up);
      else files.push(up.attachment);
    }
    for (const row of m.buttons) for (const b of row) if ('url' in b) links.push(`${b.text}: ${b.url}`);
    const text = [m.text, ...links].filter((t) => t.trim()).join('\n');
    const parts = text.trim() ? splitText(text, APPLE_TEXT_LIMIT) : [];
    const bodies: Record<string, unknown>[] = parts.map((part) => ({ type: 'text', body: part }));
    if (files.length) {
      const marks = OBJECT_REPLACEMENT.repeat(files.length);
      const first = bodies[0];
      if (first) Object.assign(first, { body: `${first.body}\n${marks}`, attachments: files });
      else bodies.push({ type: 'text', body: marks, attachments: files });
    }
    const picker = listPicker(m.text, m.buttons);
    if (picker) bodies.push({ type: 'interactive', interactiveData: picker });
    let externalId: string | undefined;
    for (const [i, body] of bodies.entries()) {
      const id = partId(m.deliveryId, i);
      const sent = await callApple(ctx, creds, '/message', {
        headers: {
          id,
          'destination-id': m.client.externalId,
          ...(m.automatic ? { 'auto-reply': 'true' } : {}),
        },
        json: { id, sourceId: creds.businessId, destinationId: m.client.externalId, v: 1, ...body },
      });
      if (!sent.ok) return failed(sent);
      externalId ??= id;
    }
    return { ok: true, externalId };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

/**
 * An operator is writing: a `typing_start` message to the client (Apple's samples send it with no body; the
 * indicator ends by itself or with our next message). Best effort: a refusal is thrown for the caller to log.
 */
export async function typingApple(
  ctx: AdapterContext,
  channel: AdapterChannel,
  client: { externalId: string },
): Promise<void> {
  const creds = credsOf(channel);
  const id = randomUUID();
  const sent = await callApple(ctx, creds, '/message', {
    headers: { id, 'destination-id': client.externalId },
    json: { id, sourceId: creds.businessId, destinationId: client.externalId, v: 1, type: 'typing_start' },
  });
  if (!sent.ok) throw new Error(`Apple typing_start: ${sent.status} ${sent.message}`);
}
