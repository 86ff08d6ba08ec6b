import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../http/errors.ts';
import { hashToken } from '../lib/crypto.ts';
import { downloadedName, downloadMedia, mediaType, nameForType } from './download.ts';
import { PollFailure } from './long-poll.ts';
import { splitText } from './telegram/send.ts';
import type {
  AdapterChannel,
  AdapterContext,
  MediaDownload,
  MediaRef,
  OutboundMessage,
  RawRequest,
  SendResult,
} from './types.ts';

/**
 * What the marketplace channels (Ozon, Yandex Market) share: sellers' APIs called with a key, chats polled by the
 * job runner, pushes at an address carrying a key of ours (neither marketplace signs its calls), 64-bit ids.
 */

/**
 * What a call answers, in our terms: `refused` for the seller's key (401/403), `retryable` for a rate limit and 5xx
 * (back off, never retry other 4xx), `retryAfterMs` how long the provider's limit asks us to wait.
 */
export type MarketplaceAnswer<T> =
  | { ok: true; result: T }
  | {
      ok: false;
      status: number;
      message: string;
      refused: boolean;
      retryable: boolean;
      retryAfterMs?: number;
    };

/**
 * 64-bit ids are integers in the marketplaces' JSON: a bare integer of 16 digits or more under a key ending in `id`
 * (`message_id`, `chatId`) is quoted before parsing, so none is rounded by JSON.parse.
 */
export const parseLossless = (text: string): unknown =>
  JSON.parse(text.replace(/("[a-z_]*id"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/gi, '$1"$2"'));

/** A message id as a number, for ordering (ids are 64-bit: BigInt); null when not a decimal id. */
export const idOrder = (id: string): bigint | null => (/^\d{1,20}$/.test(id) ? BigInt(id) : null);

/** True when message id `a` comes after `b` (ids grow over time; non-numeric ids compare as never after). */
export const isAfter = (a: string, b: string | undefined) => {
  if (b === undefined) return true;
  const x = idOrder(a);
  const y = idOrder(b);
  return x !== null && y !== null && x > y;
};

/** Compares two message ids oldest first (non-numeric ids first). */
export const byIdOrder = (a: string, b: string) => {
  const x = idOrder(a) ?? -1n;
  const y = idOrder(b) ?? -1n;
  return x < y ? -1 : x > y ? 1 : 0;
};

export { PollFailure } from './long-poll.ts';

/** The answer's result, or its failure thrown. */
export const must = <T>(a: MarketplaceAnswer<T>): T => {
  if (a.ok) return a.result;
  throw new PollFailure(a.message, a.refused, a.retryAfterMs ?? 0);
};

/** A failed send in our terms: a refused key is the channel's problem, a rate limit waits, 5xx retries. */
export function sendFailure(a: Extract<MarketplaceAnswer<unknown>, { ok: false }>): SendResult {
  if (a.refused) return { ok: false, retryable: false, error: a.message, tokenRefused: true };
  return {
    ok: false,
    retryable: a.retryable,
    error: a.message,
    ...(a.retryAfterMs ? { retryAfterMs: a.retryAfterMs } : {}),
  };
}

/** One of our stored files as a marketplace takes it. */
export type OutboundFile = { data: Buffer; type: string; name: string };

/**
 * One of our messages into a buyer's chat, the same way at each marketplace: each attachment from our storage sent
 * as a file (refused past `fileMax`), one elsewhere as its link in the text, then the text split past `textLimit`
 * (plain text). Stops at the first refusal (`sendFailure`); a network failure is retried.
 */
export async function sendToMarketplace(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
  limits: { fileMax: number; textLimit: number },
  call: {
    file(f: OutboundFile): Promise<MarketplaceAnswer<unknown>>;
    text(part: string): Promise<MarketplaceAnswer<unknown>>;
  },
): Promise<SendResult> {
  let text = m.text;
  try {
    for (const a of m.attachments) {
      const stored = await ctx.readFile(channel.organisationId, a.url);
      if (!stored) {
        text = [text, a.url].filter((t) => t.trim()).join('\n');
        continue;
      }
      if (stored.data.length > limits.fileMax)
        return { ok: false, retryable: false, error: `a file over ${limits.fileMax} bytes` };
      const type = a.contentType ?? stored.contentType;
      const name = a.name ?? stored.name ?? nameForType('file', type) ?? 'file.bin';
      const res = await call.file({ data: stored.data, type, name });
      if (!res.ok) return sendFailure(res);
    }
    for (const part of text.trim() ? splitText(text, limits.textLimit) : []) {
      const res = await call.text(part);
      if (!res.ok) return sendFailure(res);
    }
  } catch (err) {
    return { ok: false, retryable: true, error: (err as Error).message };
  }
  return { ok: true };
}

/** The provider said no, or could not be asked (§8 'channel creation error'), as the other adapters say it. */
export const creationRefusal = (reason: 'unreachable' | 'token', provider?: string) =>
  new AppError('channelCreationException', undefined, { reason, ...(provider ? { provider } : {}) });

/** Our name and version where a marketplace's push check asks for them. */
export const PUSH_SERVICE = { name: 'SmartConnect', version: '1.0.0' } as const;

/**
 * The push address's key (`?key=`, made at connect, shown once, only its hash kept) against the channel's, in constant
 * time; the path alone is refused. A second endpoint of the common route is never a marketplace's.
 */
export function verifyInboundKey(
  channel: AdapterChannel,
  req: RawRequest,
  key: unknown = req.query.key,
): boolean {
  if (req.endpoint !== undefined || typeof key !== 'string' || !key || !channel.inboundKeyHash) return false;
  const given = Buffer.from(hashToken(key));
  const expected = Buffer.from(channel.inboundKeyHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Downloads a file a buyer's message links to. Whether the marketplaces' file links need the seller's credentials is
 * not documented: our choice sends the key headers only to the API's own address, never to another host, so the key
 * does not leak to whatever a message links to.
 */
export async function fetchMarketplaceMedia(
  ctx: AdapterContext,
  ref: MediaRef,
  apiBaseUrl: string,
  headers: Record<string, string>,
): Promise<MediaDownload> {
  let own = false;
  try {
    own = new URL(ref.ref).origin === new URL(apiBaseUrl).origin;
  } catch {
    own = false;
  }
  const res = await downloadMedia(ctx, ref.ref, own ? headers : undefined);
  return {
    stream: res.body,
    size: res.size ?? ref.size,
    contentType: ref.contentType ?? mediaType(res.headers.get('content-type')) ?? 'application/octet-stream',
    name: ref.name ?? downloadedName(res.headers, ref.ref),
  };
}
