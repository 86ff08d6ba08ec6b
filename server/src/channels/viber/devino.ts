import { backoffMs, REFUSED_AGAIN_MS } from '../long-poll.ts';
import { splitText } from '../telegram/send.ts';
import type { AdapterChannel, AdapterContext, OutboundMessage, PollSession, SendResult } from '../types.ts';
import { type Credentials, callDevino, credentialsOf, type ProviderAnswer } from './api.ts';
import { devinoStatusEvent } from './parse.ts';
import { pendingProviderIds, STATUS_BATCH } from './queries.ts';

/** Devino's Viber HTTP API limits and our choices within them (docs/providers/viber-regional.md §1a). */
export const DEVINO = {
  /** `content.text`: up to 1000 characters. */
  textLimit: 1000,
  /** At most 100 messages per `/send` call. */
  sendBatch: 100,
  /** `validityPeriodSec` (30–86400): a day without the SMS fallback. */
  validitySeconds: 86_400,
  /** With the fallback the SMS goes out once Viber gives up: an hour, so the client is not kept waiting a day. */
  fallbackValiditySeconds: 3_600,
  /** `smsValidityPeriodSec` (60–86400). */
  smsValiditySeconds: 86_400,
  /** Status poll every minute; ids of the last 3 days; at most this many `/status` calls a pass. */
  pollIntervalMs: 60_000,
  pollDays: 3,
  pollCallsMax: 10,
  /** No request-rate limit is published: a 429 without Retry-After waits a minute. */
  rateLimitWaitMs: 60_000,
} as const;

/** A request-level answer as one of three outcomes: the credentials refused, a passing failure, or answered. */
type Outcome =
  | { kind: 'refused' | 'retry' | 'failed'; error: string; retryAfterMs?: number }
  | { kind: 'ok' };

/** Devino writes its errors in the body (`status`), not as HTTP codes (§1a); a proxy in front may still say 5xx. */
export function devinoOutcome(a: ProviderAnswer): Outcome {
  const status = typeof a.json.status === 'string' ? a.json.status : '';
  if (a.status === 401 || a.status === 403 || status === 'error-auth' || status === 'error-account-locked')
    return { kind: 'refused', error: status || `HTTP ${a.status}` };
  if (a.status === 429)
    return { kind: 'retry', error: 'HTTP 429', retryAfterMs: a.retryAfterMs ?? DEVINO.rateLimitWaitMs };
  if (a.status >= 500 || status === 'error-system')
    return { kind: 'retry', error: status || `HTTP ${a.status}`, retryAfterMs: a.retryAfterMs };
  if (status === 'ok') return { kind: 'ok' };
  return { kind: 'failed', error: status || `HTTP ${a.status}` };
}

/**
 * Checks the cabinet's login and password: Devino's legacy API has no account call, so a `/status` query for no
 * messages, which Devino authenticates before anything else; only `error-auth` (or 401) says the credentials are
 * wrong. The sender (`subject`) is checked when a message is sent (`error-subject-unknown`).
 */
export async function checkDevino(ctx: AdapterContext, c: Credentials): Promise<Outcome> {
  const a = await callDevino(ctx, c, '/status', '{"messages":[]}');
  const o = devinoOutcome(a);
  return o.kind === 'failed' ? { kind: 'ok' } : o;
}

type SendItem = Record<string, unknown>;

/** The SMS fallback's fields of one text message (§1a "SMS fallback"): the same text, from the SMS sender. */
const smsFields = (text: string, sender: string) => ({
  smsText: text,
  smsSrcAddress: sender,
  smsValidityPeriodSec: DEVINO.smsValiditySeconds,
});

/**
 * One of our messages as Devino messages to the client's phone, in as few `/send` calls as Devino allows: the text
 * in parts of 1000 characters, then each picture on its own (Devino takes text+image only with a button). Devino has
 * no idempotency key, so all parts go in one call: a retried delivery repeats only a call Devino did not take. With
 * the SMS fallback (`resendSms`) the texts carry the SMS fields; pictures cannot fall back (an image with `resendSms`
 * is refused), so they go in a second call without it. The first `providerId` is the message's external id, polled
 * for its status.
 */
export async function sendDevino(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  if (m.event === 'message.updated')
    return { ok: false, retryable: false, error: 'Viber business messages cannot be edited' };
  const subject = String(channel.settings.serviceId ?? '');
  const fallback = channel.settings.smsFallback === true && typeof channel.settings.smsSender === 'string';
  const base = (validity: number) => ({
    subject,
    priority: 'high',
    validityPeriodSec: validity,
    type: 'viber',
    address: m.client.externalId,
  });
  const texts: SendItem[] = (m.text.trim() ? splitText(m.text, DEVINO.textLimit) : []).map((text) => ({
    ...base(fallback ? DEVINO.fallbackValiditySeconds : DEVINO.validitySeconds),
    contentType: 'text',
    content: { text },
    ...(fallback ? smsFields(text, String(channel.settings.smsSender)) : {}),
  }));
  const images: SendItem[] = m.attachments
    .filter((a) => /^image\/(jpeg|png)$/.test((a.contentType ?? '').split(';')[0]?.trim() ?? ''))
    .map((a) => ({
      ...base(DEVINO.validitySeconds),
      contentType: 'image',
      content: { imageUrl: a.url.startsWith('/') ? `${ctx.publicUrl}${a.url}` : a.url },
    }));
  const calls = fallback
    ? [
        { resendSms: true, messages: texts },
        { resendSms: false, messages: images },
      ]
    : [{ resendSms: false, messages: [...texts, ...images] }];
  let first: string | undefined;
  let rejected: string | undefined;
  try {
    for (const call of calls) {
      for (let i = 0; i < call.messages.length; i += DEVINO.sendBatch) {
        const body = JSON.stringify({
          resendSms: call.resendSms,
          messages: call.messages.slice(i, i + DEVINO.sendBatch),
        });
        const a = await callDevino(ctx, credentialsOf(channel), '/send', body);
        const o = devinoOutcome(a);
        if (o.kind === 'refused')
          return { ok: false, retryable: false, tokenRefused: true, error: `Devino: ${o.error}` };
        if (o.kind === 'retry')
          return {
            ok: false,
            retryable: true,
            error: `Devino: ${o.error}`,
            ...(o.retryAfterMs ? { retryAfterMs: o.retryAfterMs } : {}),
          };
        if (o.kind === 'failed') return { ok: false, retryable: false, error: `Devino: ${o.error}` };
        for (const item of (a.json.messages ?? []) as { code?: unknown; providerId?: unknown }[]) {
          if (
            item?.code === 'ok' &&
            (typeof item.providerId === 'string' || typeof item.providerId === 'number')
          )
            first ??= String(item.providerId);
          else rejected ??= typeof item?.code === 'string' ? item.code : 'rejected';
        }
      }
    }
  } catch (err) {
    return { ok: false, retryable: true, error: `Devino: ${(err as Error).message}` };
  }
  if (!first) return { ok: false, retryable: false, error: `Devino: ${rejected ?? 'nothing to send'}` };
  return { ok: true, externalId: first };
}

type PollCursor = { failures?: number };

/** Devino could not be asked, or answered a passing failure (not ingest's failure: the job runner retries that). */
class Failure extends Error {
  constructor(
    message: string,
    readonly waitMs = 0,
  ) {
    super(message);
  }
}

/**
 * Devino's legacy API has no status callbacks (§1a): every minute the statuses of the channel's messages still on
 * their way are asked with `/status` (100 ids a call) and handed to ingest as status events. A refused login is the
 * channel's problem (asked again 5 minutes later); failures back off from 1 s doubling to a minute.
 */
export async function pollDevinoStatuses(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  const failures = Number((session.cursor as PollCursor).failures) || 0;
  const ids = await pendingProviderIds(
    ctx.db,
    channel.id,
    DEVINO.pollDays,
    STATUS_BATCH * DEVINO.pollCallsMax,
  );
  try {
    for (let i = 0; i < ids.length && !session.signal.aborted; i += STATUS_BATCH) {
      const body = `{"messages":[${ids.slice(i, i + STATUS_BATCH).join(',')}]}`;
      const a = await callDevino(ctx, credentialsOf(channel), '/status', body, session.signal).catch(
        (err: Error) => {
          throw new Failure(`Devino: ${err.message}`);
        },
      );
      const o = devinoOutcome(a);
      if (o.kind === 'refused') {
        await session.problem('token_refused', `Devino: ${o.error}`);
        return { againInMs: REFUSED_AGAIN_MS };
      }
      if (o.kind !== 'ok') throw new Failure(`Devino: ${o.error}`, o.kind === 'retry' ? o.retryAfterMs : 0);
      if (i === 0) await session.working();
      const events = ((a.json.messages ?? []) as unknown[]).map(devinoStatusEvent).filter((e) => e !== null);
      if (events.length) await session.receive(events);
    }
    if (failures) await session.saveCursor({ failures: 0 });
    return { againInMs: DEVINO.pollIntervalMs };
  } catch (err) {
    if (session.signal.aborted) return { againInMs: 0 };
    if (!(err instanceof Failure)) throw err;
    await session.problem('unreachable', err.message);
    await session.saveCursor({ failures: failures + 1 }).catch(() => false);
    return { againInMs: Math.max(err.waitMs, backoffMs(failures + 1)) };
  }
}
