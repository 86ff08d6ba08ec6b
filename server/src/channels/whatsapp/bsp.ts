import { timingSafeEqual } from 'node:crypto';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import { hashToken, randomToken } from '../../lib/crypto.ts';
import { downloadMedia, mediaType } from '../download.ts';
import { splitText } from '../telegram/send.ts';
import type {
  AdapterChannel,
  AdapterContext,
  Connected,
  MediaDownload,
  MediaRef,
  OutboundMessage,
  ParsedEvent,
  RawRequest,
  SendResult,
} from '../types.ts';
import { at, ID_MAX, read, storable, unreadable, unreadableMessage, unreadableText } from '../unreadable.ts';

/**
 * WhatsApp through a business solution provider (§3 'phone, provider login and password'), modelled on the
 * Gupshup Enterprise WhatsApp API. The protocol this client speaks (and server/test/fakes/whatsapp-bsp.ts serves):
 * - every call is `POST {WHATSAPP_BSP_BASE_URL}/GatewayAPI/rest` with form fields `method`, `userid` (our login),
 *   `password`, `v=1.1`, `format=json`, `auth_scheme=plain` and the method's own fields;
 * - `method=OPT_IN&phone_number=<business phone>&channel=WHATSAPP` is our credential check (harmless: it opts in
 *   the business's own number);
 * - `method=SendMessage&send_to=<client digits>&msg_type=TEXT|IMAGE|DOCUMENT&msg=<text>` (`media_url`, `caption`,
 *   `filename` for media) sends one message;
 * - answers `{"response":{"status":"success","id":"<message id>"}}` or
 *   `{"response":{"status":"error","id":"<code>","details":"..."}}` (code 105: wrong userid or password, 175: the
 *   24-hour session is over); HTTP 429 is a rate limit (Retry-After in seconds), 5xx a provider failure;
 * - the provider does not sign its callbacks: inbound messages and delivery reports are POSTed (form fields or
 *   JSON, one object or an array) to the URL the admin enters in the provider's portal,
 *   `/api/webhooks/whatsapp/{channelId}?key=<key we generated>` (or the key in an `X-Webhook-Key` header);
 *   a message: `waNumber` (the business), `mobile` (the client), `name`, `messageId`, `timestamp`, `type`
 *   (text, image, document, audio, video, voice, location...), `text`, and for media `image`/`document`/... a JSON
 *   string `{url, mime_type, caption, name}`; a delivery report: `externalId` (the id SendMessage answered),
 *   `eventType` SENT|DELIVERED|READ|FAILED, `cause` and `errorCode` (or `errCode`).
 */
export const BSP_BASE_URL_ENV = 'WHATSAPP_BSP_BASE_URL';
/** A text message's longest body at the provider. */
export const BSP_TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;
export const BSP_MEDIA_MAX = 100 * 1024 * 1024;
const RATE_LIMIT_WAIT_MS = 60_000;
/** The provider's code for refused credentials. */
const AUTH_FAILED = '105';
/** The provider's code for a free message after the 24-hour session. */
const SESSION_ENDED = '175';

type BspAnswer =
  | { ok: true; id: string }
  | { ok: false; status: number; code: string; details: string; retryAfterMs?: number };

const refusal = (reason: 'unreachable' | 'token') =>
  new AppError('channelCreationException', undefined, { reason });

/** One provider call with the account's login and password; network failures throw. */
async function callBsp(
  ctx: AdapterContext,
  creds: { login: string; password: string },
  fields: Record<string, string>,
): Promise<BspAnswer> {
  const base = (ctx.env[BSP_BASE_URL_ENV] ?? '').replace(/\/$/, '');
  if (!base) throw new Error(`${BSP_BASE_URL_ENV} is not set`);
  const form = new URLSearchParams({
    userid: creds.login,
    password: creds.password,
    v: '1.1',
    format: 'json',
    auth_scheme: 'plain',
    ...fields,
  });
  const res = await ctx.outbound.fetch(`${base}/GatewayAPI/rest`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  });
  let answer: { status?: unknown; id?: unknown; details?: unknown } = {};
  try {
    answer = (JSON.parse(res.body.toString('utf8')) as { response?: typeof answer }).response ?? {};
  } catch {
    answer = {};
  }
  if (res.status >= 200 && res.status < 300 && answer.status === 'success')
    return { ok: true, id: String(answer.id ?? '') };
  const retryAfter = Number(res.headers.get('retry-after'));
  return {
    ok: false,
    status: res.status,
    code: answer.id !== undefined ? String(answer.id) : `http_${res.status}`,
    details: typeof answer.details === 'string' && answer.details ? answer.details : `HTTP ${res.status}`,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
  };
}

const credsOf = (channel: AdapterChannel) => ({
  login: String(channel.settings.login ?? ''),
  password: channel.secrets.password ?? '',
});

/**
 * Checks the login and password with OPT_IN of the business's own phone: refused credentials are the password
 * field's 'Password specified incorrectly'. The webhook key is ours, generated once (shown once as `inboundKey`,
 * kept as a hash) and kept across edits.
 */
export async function connectBsp(
  ctx: AdapterContext,
  input: Record<string, unknown>,
  current?: AdapterChannel,
): Promise<Connected> {
  const pick = (f: string) =>
    (input[f] as string | undefined) ?? (current?.settings[f] as string | undefined);
  const phone = pick('phone');
  const login = pick('login');
  const password = (input.password as string | undefined) ?? current?.secrets.password;
  const missing = Object.entries({ phone, login, password }).filter(([, v]) => !v);
  if (missing.length)
    throw new AppError(
      'validationException',
      Object.fromEntries(missing.map(([k]) => [k, M.requiredFields])),
    );
  const digits = (phone as string).replace(/^\+/, '');
  const check = await callBsp(
    ctx,
    { login: login as string, password: password as string },
    {
      method: 'OPT_IN',
      phone_number: digits,
      channel: 'WHATSAPP',
    },
  ).catch(() => {
    throw refusal('unreachable');
  });
  if (!check.ok) {
    if (check.code === AUTH_FAILED || check.status === 401 || check.status === 403)
      throw new AppError('validationException', { password: M.passwordIncorrect });
    throw refusal(check.status === 429 || check.status >= 500 ? 'unreachable' : 'token');
  }
  const settings = { provider: 'bsp', phone: `+${digits}`, login };
  // An edit keeps the webhook key (its hash stays on the channel).
  if (current) return { settings, secrets: { password: password as string } };
  const key = randomToken();
  return {
    settings,
    secrets: { password: password as string },
    shownOnce: { inboundKey: key },
    inboundKeyHash: hashToken(key),
  };
}

/** The key we generated, in `?key=` or `X-Webhook-Key`, against its stored hash (constant time). */
export function verifyBsp(channel: AdapterChannel, req: RawRequest): boolean {
  const header = req.headers['x-webhook-key'];
  const given =
    typeof req.query.key === 'string' ? req.query.key : typeof header === 'string' ? header : null;
  if (!channel.inboundKeyHash || !given) return false;
  const a = Buffer.from(hashToken(given));
  const b = Buffer.from(channel.inboundKeyHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

type Fields = Record<string, unknown>;

/** The callback's objects: JSON (one or an array) or form fields; null when the body is JSON of another kind. */
function objectsOf(req: RawRequest): unknown[] | null {
  if (Array.isArray(req.body)) return req.body;
  if (req.body && typeof req.body === 'object') return [req.body];
  if (req.body !== undefined) return null;
  const text = req.rawBody.toString('utf8').trim();
  if (!text) return [];
  return [Object.fromEntries(new URLSearchParams(text))];
}

// A callback's fields, as a schema: form fields are strings, JSON may carry numbers; the others are let through.
const scalar = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .optional();
const callback = z.looseObject({
  eventType: scalar,
  externalId: scalar,
  errorCode: scalar,
  errCode: scalar,
  cause: scalar,
  mobile: scalar,
  waNumber: scalar,
  name: scalar,
  messageId: scalar,
  replyId: scalar,
  timestamp: scalar,
  type: scalar,
  text: z.string().optional(),
});
/** A media field: a JSON string (or object) with the file's url, type, caption and name. */
const mediaField = z.looseObject({
  url: z.string().optional(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  name: z.string().optional(),
  latitude: z.union([z.string(), z.number()]).optional(),
  longitude: z.union([z.string(), z.number()]).optional(),
});

const MEDIA_KINDS: Record<string, { name: string; contentType: string }> = {
  image: { name: 'image.jpg', contentType: 'image/jpeg' },
  document: { name: 'document', contentType: 'application/octet-stream' },
  audio: { name: 'audio.ogg', contentType: 'audio/ogg' },
  voice: { name: 'voice.ogg', contentType: 'audio/ogg' },
  video: { name: 'video.mp4', contentType: 'video/mp4' },
  sticker: { name: 'sticker.webp', contentType: 'image/webp' },
};

/** A media (or location) field read: null when absent or not JSON, the reason when of the wrong shape. */
function mediaOf(v: unknown): ReturnType<typeof read<z.output<typeof mediaField>>> | null {
  let value = v;
  if (typeof v === 'string') {
    if (!v.trim()) return null;
    try {
      value = JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  }
  if (!value || typeof value !== 'object') return null;
  return read(mediaField, value);
}

const digits = (v: string | undefined) => (v ?? '').replace(/^\+/, '');

/**
 * One callback as events: a client message (by `mobile`, deduplicated by `messageId`; without one, by the sender,
 * time and content) or a delivery report on one of ours (by the id SendMessage answered; SENT is what our send
 * already recorded, FAILED carries the cause). What cannot be read is answered 2xx too (the provider retries
 * anything else): a client's message as a notice in their dialog, the rest recorded on the channel.
 */
export function parseBsp(channel: AdapterChannel, req: RawRequest): ParsedEvent[] {
  const objects = objectsOf(req)?.map((o) => storable(o));
  if (!objects) return [unreadable('WhatsApp', 'body: expected object')];
  if (!objects.length) return [unreadable('WhatsApp', 'body: empty')];
  const events: ParsedEvent[] = [];
  for (const [i, item] of objects.entries()) {
    const where = objects.length > 1 ? `${i}` : 'body';
    const raw = (item && typeof item === 'object' ? item : {}) as Fields;
    const c = read(callback, item);
    if (!c.ok) {
      const mobile = digits(typeof raw.mobile === 'string' ? raw.mobile : '');
      const id = typeof raw.messageId === 'string' ? raw.messageId : '';
      if (!raw.eventType && /^\d{5,20}$/.test(mobile) && id && id.length <= ID_MAX)
        events.push(
          unreadableMessage('WhatsApp', c.reason, id, {
            externalId: mobile,
            name: `+${mobile}`,
            nameUnknown: true,
          }),
        );
      else events.push(unreadable('WhatsApp', at(where, c.reason)));
      continue;
    }
    const o = c.data;
    const eventType = (o.eventType ?? '').toUpperCase();
    const externalId = o.externalId ?? '';
    if (eventType && externalId) {
      if (externalId.length > ID_MAX) events.push(unreadable('WhatsApp', at(where, 'externalId: too long')));
      else if (eventType === 'DELIVERED' || eventType === 'READ')
        events.push({ kind: 'status', externalId, status: eventType === 'READ' ? 'read' : 'delivered' });
      else if (eventType === 'FAILED') {
        const code = o.errorCode || o.errCode || '';
        events.push({
          kind: 'status',
          externalId,
          status: 'undelivered',
          reason: [code, o.cause ?? ''].filter(Boolean).join(': ') || 'failed',
        });
      }
      continue;
    }
    const mobile = digits(o.mobile);
    if (!/^\d{5,20}$/.test(mobile)) continue;
    const waNumber = digits(o.waNumber);
    const own = String(channel.settings.phone ?? '').replace(/^\+/, '');
    if (waNumber && own && waNumber !== own) continue;
    const type = (o.type ?? '').toLowerCase() || 'text';
    const media: MediaRef[] = [];
    let text = '';
    let notice: string | undefined;
    const found = Object.hasOwn(MEDIA_KINDS, type) ? mediaOf(raw[type]) : null;
    const file = found?.ok ? found.data : null;
    if (found && !found.ok) notice = at(type, found.reason);
    else if (file?.url) {
      const defaults = MEDIA_KINDS[type] as { name: string; contentType: string };
      media.push({
        ref: file.url,
        name: file.name || defaults.name,
        contentType: (file.mime_type || defaults.contentType).split(';')[0]?.trim(),
      });
      text = file.caption ?? '';
    } else if (type === 'text') text = o.text ?? '';
    else if (type === 'location') {
      const l = mediaOf(raw.location);
      if (l && !l.ok) notice = at('location', l.reason);
      else text = l ? `📍 ${l.data.latitude ?? ''}, ${l.data.longitude ?? ''}` : '[WhatsApp: location]';
    }
    if (notice) text = unreadableText('WhatsApp', notice);
    if (!text && !media.length) text = `[WhatsApp: ${type}]`;
    const id = o.messageId || o.replyId || hashToken(`${mobile}|${o.timestamp ?? ''}|${text}`);
    if (id.length > ID_MAX) {
      events.push(unreadable('WhatsApp', at(where, 'messageId: too long')));
      continue;
    }
    const name = o.name?.trim().slice(0, 200);
    events.push({
      kind: 'message',
      message: {
        externalMessageId: id,
        // Without a name (a callback may omit it) a known client keeps the one stored.
        client: name
          ? { externalId: mobile, name }
          : { externalId: mobile, name: `+${mobile}`, nameUnknown: true },
        text,
        attachments: [],
        media,
      },
    });
  }
  return events;
}

/** The reason shown on an Undelivered message, and whether to try again. */
function failure(a: Extract<BspAnswer, { ok: false }>): SendResult {
  const error = `${a.code}: ${a.details}`;
  if (a.code === SESSION_ENDED)
    return { ok: false, retryable: false, error: `24-hour session ended (${error})` };
  if (a.status === 429)
    return { ok: false, retryable: true, error, retryAfterMs: a.retryAfterMs ?? RATE_LIMIT_WAIT_MS };
  return { ok: false, retryable: a.status >= 500, error };
}

/**
 * One of our messages as SendMessage calls: each attachment by its public URL (IMAGE for JPEG and PNG, else
 * DOCUMENT; a short text rides as the first caption), then the text (split past 4096). Templates are the Cloud
 * API's only; a BSP channel cannot edit.
 */
export async function sendBsp(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'WhatsApp does not edit sent messages' };
  if (m.template)
    return { ok: false, retryable: false, error: 'WhatsApp templates are sent through the Cloud API only' };
  const send = (fields: Record<string, string>) =>
    callBsp(ctx, credsOf(channel), { method: 'SendMessage', send_to: m.client.externalId, ...fields });
  let first: string | undefined;
  let text = m.text;
  try {
    for (const a of m.attachments) {
      const type = (a.contentType ?? '').split(';')[0]?.trim() ?? '';
      const image = type === 'image/jpeg' || type === 'image/png';
      const fields: Record<string, string> = {
        msg_type: image ? 'IMAGE' : 'DOCUMENT',
        media_url: a.url.startsWith('/') ? `${ctx.publicUrl}${a.url}` : a.url,
      };
      if (!image) fields.filename = a.name ?? 'file';
      if (text.trim() && text.length <= CAPTION_LIMIT) {
        fields.caption = text;
        text = '';
      }
      const res = await send(fields);
      if (!res.ok) return failure(res);
      first ??= res.id;
    }
    for (const part of text.trim() ? splitText(text, BSP_TEXT_LIMIT) : []) {
      const res = await send({ msg_type: 'TEXT', msg: part });
      if (!res.ok) return failure(res);
      first ??= res.id;
    }
    if (!first) return { ok: false, retryable: false, error: 'nothing to send' };
    return { ok: true, externalId: first };
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
}

/** An inbound file: the provider's URL, fetched as is (the provider's links need no credentials). */
export async function fetchBspMedia(
  ctx: AdapterContext,
  _channel: AdapterChannel,
  ref: MediaRef,
): Promise<MediaDownload> {
  const res = await downloadMedia(ctx, ref.ref);
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType: ref.contentType ?? mediaType(res.headers.get('content-type')) ?? 'application/octet-stream',
    name: ref.name,
  };
}
