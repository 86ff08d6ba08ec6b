import type { FormData } from 'undici';
import { type MarketplaceAnswer, parseLossless } from '../marketplace.ts';
import type { AdapterContext } from '../types.ts';

/**
 * The Yandex Market Partner API client (docs/providers/yandex-market.md §1, §7): the seller's `Api-Key` header, the
 * cabinet's business id in the path of every chat method (`/v2/businesses/{businessId}/…`), answers in the
 * `{status: "OK", result}` envelope, errors as `{status: "ERROR", errors: [{code, message}]}`. Tests point it at a
 * fake (YANDEX_MARKET_API_BASE_URL).
 */
export const YA_MARKET_BASE_URL = 'https://api.partner.market.yandex.ru';

export const baseUrl = (ctx: AdapterContext) =>
  (ctx.env.YANDEX_MARKET_API_BASE_URL || YA_MARKET_BASE_URL).replace(/\/$/, '');

/** The seller's credentials, as connect checks them and the channel stores them. */
export type YaMarketCredentials = { businessId: string; apiKey: string };

export const credentialsOf = (channel: {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
}): YaMarketCredentials => ({
  businessId: String(channel.settings.businessId ?? ''),
  apiKey: channel.secrets.apiKey ?? '',
});

export type YaMarketAnswer<T> = MarketplaceAnswer<T>;

/**
 * Market's wait after 420 "Enhance Your Calm" when it names no time (§7): the parallel limit clears as soon as a
 * request ends, so a second. An hourly limit names its end (`X-RateLimit-Resource-Until`): waited, up to 10 minutes.
 */
export const YA_MARKET_RATE_WAIT_MS = 1_000;
const RATE_WAIT_MAX_MS = 10 * 60_000;

/**
 * At most 4 parallel requests per business (§7 global limit, 420 beyond it): every call of this process for one
 * business waits its turn here, whoever makes it (the poll, a push's reads, the sender).
 */
export const PARALLEL_PER_BUSINESS = 4;
const running = new Map<string, { count: number; waiting: (() => void)[] }>();

async function turn<T>(businessId: string, work: () => Promise<T>): Promise<T> {
  let slot = running.get(businessId);
  if (!slot) {
    slot = { count: 0, waiting: [] };
    running.set(businessId, slot);
  }
  const own = slot;
  if (own.count >= PARALLEL_PER_BUSINESS) await new Promise<void>((resolve) => own.waiting.push(resolve));
  else own.count++;
  try {
    return await work();
  } finally {
    // The slot passes to the next waiter as is; the last one out frees it.
    const next = own.waiting.shift();
    if (next) next();
    else if (--own.count === 0) running.delete(businessId);
  }
}

/**
 * How long a rate-limited answer asks us to wait: an hourly limit used up (`X-RateLimit-Resource-Remaining` 0) until
 * its `X-RateLimit-Resource-Until`; else (the parallel limit, whose answer names no time) a Retry-After or a second.
 */
function rateWaitMs(headers: Headers): number {
  const until = Date.parse(headers.get('x-ratelimit-resource-until') ?? '');
  if (
    headers.get('x-ratelimit-resource-remaining')?.trim() === '0' &&
    Number.isFinite(until) &&
    until > Date.now()
  )
    return Math.min(until - Date.now(), RATE_WAIT_MAX_MS);
  const retryAfterS = Number(headers.get('retry-after'));
  return retryAfterS > 0 ? Math.min(retryAfterS * 1000, RATE_WAIT_MAX_MS) : YA_MARKET_RATE_WAIT_MS;
}

export type YaMarketCall = {
  method: 'GET' | 'POST';
  /** After `/v2/businesses/{businessId}`, e.g. `/chats/history`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /**
   * A JSON body (the chat list and history need one, `{}` for none), already written JSON (an int64 written as a
   * bare number that a JavaScript number would round), or a multipart form (a file).
   */
  body?: Record<string, unknown> | string | FormData;
  signal?: AbortSignal;
  maxBytes?: number;
};

/** One business method of the Partner API. Network failures (and refused addresses) throw. */
export async function callYaMarket<T>(
  ctx: AdapterContext,
  creds: YaMarketCredentials,
  call: YaMarketCall,
): Promise<YaMarketAnswer<T>> {
  const url = new URL(`${baseUrl(ctx)}/v2/businesses/${encodeURIComponent(creds.businessId)}${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {}))
    if (value !== undefined) url.searchParams.set(name, String(value));
  const form =
    call.body !== undefined &&
    typeof call.body === 'object' &&
    typeof (call.body as FormData).append === 'function';
  const json = call.body !== undefined && !form;
  const res = await turn(creds.businessId, () =>
    ctx.outbound.fetch(url.toString(), {
      method: call.method,
      headers: { 'Api-Key': creds.apiKey, ...(json ? { 'content-type': 'application/json' } : {}) },
      ...(call.body === undefined
        ? {}
        : {
            body: form
              ? (call.body as FormData)
              : typeof call.body === 'string'
                ? call.body
                : JSON.stringify(call.body),
          }),
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.maxBytes ? { maxBytes: call.maxBytes } : {}),
    }),
  );
  let answer:
    | { status?: unknown; result?: unknown; errors?: { code?: unknown; message?: unknown }[] }
    | undefined;
  try {
    answer = parseLossless(res.body.toString('utf8')) as typeof answer;
  } catch {
    answer = undefined;
  }
  if (res.status === 200 && answer && typeof answer === 'object' && answer.status !== 'ERROR')
    return { ok: true, result: (answer.result ?? {}) as T };
  const first = Array.isArray(answer?.errors) ? answer.errors[0] : undefined;
  const detail = [first?.code, first?.message].filter((p) => typeof p === 'string' && p).join(': ');
  // 420 is Market's rate limit (§7); 429 is read the same, should a proxy in front of it answer so.
  const limited = res.status === 420 || res.status === 429;
  return {
    ok: false,
    status: res.status,
    message: `${call.path}: ${detail || `HTTP ${res.status}`}`.slice(0, 300),
    refused: res.status === 401 || res.status === 403,
    // A 200 that is not the envelope is Market's passing trouble too.
    retryable: limited || res.status >= 500 || res.status === 200,
    ...(limited ? { retryAfterMs: rateWaitMs(res.headers) } : {}),
  };
}
