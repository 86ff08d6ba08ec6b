import { WEBHOOK_HEADERS, WEBHOOK_LIMITS, type WebhookAttemptError } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { decryptSecret } from '../../lib/crypto.ts';
import { OutboundRefusedError } from '../../lib/outbound.ts';
import { disabledMail } from './mails.ts';
import * as Q from './queries.ts';
import { signatureHeader } from './signature.ts';

export const SENDER = {
  /** A sender holds a claimed delivery this long; a sender that dies lets it go then. */
  leaseMs: 5 * 60_000,
  /** Deliveries of one endpoint claimed at once, sent in event order. */
  perEndpoint: 200,
  /** Requests of one endpoint in flight at once. */
  inFlight: 16,
  /** Deliveries claimed at once, all endpoints. */
  batch: 2_000,
} as const;

/** The wait after the n-th failed attempt: a minute, doubling, at most retryMaxMs. */
export const retryDelayMs = (attempts: number): number =>
  Math.min(WEBHOOK_LIMITS.retryFirstMs * 2 ** Math.max(0, attempts - 1), WEBHOOK_LIMITS.retryMaxMs);

type Outcome = {
  statusCode: number | null;
  durationMs: number;
  error: WebhookAttemptError | null;
  ok: boolean;
};

/** Why a request did not end in an answer, in the log's words. */
function failure(err: unknown): WebhookAttemptError {
  if (err instanceof OutboundRefusedError) return 'address_refused';
  for (let cause: unknown = err; cause instanceof Error; cause = cause.cause) {
    const code = (cause as Error & { code?: string }).code ?? '';
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError' || /TIMEOUT/i.test(code))
      return 'timeout';
  }
  return 'network';
}

/** One POST of a delivery's body, signed, through the guarded client: no redirect followed, bounded time and size. */
async function post(
  app: AppContext,
  d: { id: string; url: string; secret: string; body: string; eventId: string; eventType: string },
): Promise<Outcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const answer = await app.outbound.fetch(d.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'SmartConnect-Webhooks/1',
        [WEBHOOK_HEADERS.signature]: signatureHeader(d.secret, d.body, app.clock.now()),
        [WEBHOOK_HEADERS.eventId]: d.eventId,
        [WEBHOOK_HEADERS.eventType]: d.eventType,
        [WEBHOOK_HEADERS.deliveryId]: d.id,
      },
      body: d.body,
      timeoutMs: WEBHOOK_LIMITS.timeoutMs,
      maxBytes: WEBHOOK_LIMITS.answerMaxBytes,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    const error: WebhookAttemptError | null = ok
      ? answer.truncated
        ? 'answer_truncated'
        : null
      : answer.status >= 300 && answer.status < 400
        ? 'redirect'
        : 'http_status';
    return { statusCode: answer.status, durationMs: took(), error, ok };
  } catch (err) {
    return { statusCode: null, durationMs: took(), error: failure(err), ok: false };
  }
}

/** The public id of a delivery's event: the events row's id, or the delivery's own for a test event. */
export const publicEventId = (d: { id: string; event_id: string | null }): string =>
  d.event_id ?? `test_${d.id}`;

/** The record of one attempt: delivered on a 2xx; else due again after the backoff while its day lasts, then failed. */
function resultOf(d: Q.DueDelivery, outcome: Outcome, now: Date): Q.AttemptResult & { id: string } {
  const until = new Date(d.retry_until).getTime();
  const status = outcome.ok ? 'delivered' : now.getTime() >= until ? 'failed' : 'pending';
  const retryAt = Math.min(now.getTime() + retryDelayMs(d.attempts + 1), until);
  return {
    id: d.id,
    status,
    nextAttemptAt: status === 'pending' ? new Date(retryAt) : null,
    at: now,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.error,
  };
}

const send = (app: AppContext, d: Q.DueDelivery) =>
  post(app, {
    id: d.id,
    url: d.url,
    secret: decryptSecret(app.config.secretKey, d.secret_sealed),
    body: d.body,
    eventId: publicEventId(d),
    eventType: d.event_type,
  });

/**
 * Records the attempts of one endpoint's deliveries in one transaction. Its last attempt decides its failure record:
 * a success clears it; a failure starts it, and one a day old disables the endpoint (its administrators are told).
 */
async function record(
  app: AppContext,
  attempts: { d: Q.DueDelivery; outcome: Outcome; at: Date }[],
): Promise<Q.DeliveryRow[]> {
  if (!attempts.length) return [];
  const last = attempts[attempts.length - 1];
  const { rows, disabled } = await app.db.tx(async (q) => {
    const rows = await Q.recordAttempts(
      q,
      attempts.map((a) => resultOf(a.d, a.outcome, a.at)),
    );
    if (last.outcome.ok) {
      await Q.endpointSucceeded(q, last.d.endpoint_id);
      return { rows, disabled: undefined };
    }
    return {
      rows,
      disabled: await Q.endpointFailed(q, last.d.endpoint_id, last.at, WEBHOOK_LIMITS.retryForMs),
    };
  });
  if (disabled) await tellAdmins(app, disabled);
  return rows;
}

/** Makes one attempt of a claimed delivery now and records it (the test event, a redelivery). */
export async function attempt(app: AppContext, d: Q.DueDelivery): Promise<Q.DeliveryRow> {
  const outcome = await send(app, d);
  const [row] = await record(app, [{ d, outcome, at: app.clock.now() }]);
  return row;
}

/** The organisation's integration administrators learn that an endpoint was turned off (never throws). */
async function tellAdmins(app: AppContext, endpoint: Q.EndpointRow): Promise<void> {
  app.log.warn(
    { endpoint: endpoint.id, organisation: endpoint.organisation_id },
    'webhook endpoint disabled',
  );
  try {
    const link = `${app.config.publicUrl}/admin/preferences/extensions`;
    for (const admin of await Q.integrationAdmins(app.db, endpoint.organisation_id))
      await app.mailer.send(
        disabledMail(admin.language === 'rus' ? 'rus' : 'eng', admin.email, endpoint.url, link),
      );
  } catch (err) {
    app.log.error({ err, endpoint: endpoint.id }, 'webhook endpoint notice not sent');
  }
}

/**
 * Sends the due deliveries: claims a batch; each endpoint's go out in event order, `inFlight` at a time (a later one
 * may overtake a slower earlier one), and are recorded together; endpoints side by side. Answers how many were
 * attempted.
 */
export async function sendDue(app: AppContext, stopped: () => boolean): Promise<number> {
  const now = app.clock.now();
  const claimed = await Q.claimDue(
    app.db,
    now,
    new Date(now.getTime() + SENDER.leaseMs),
    SENDER.perEndpoint,
    SENDER.batch,
  );
  const byEndpoint = new Map<string, Q.DueDelivery[]>();
  for (const d of claimed) byEndpoint.set(d.endpoint_id, [...(byEndpoint.get(d.endpoint_id) ?? []), d]);
  const order = (a: Q.DueDelivery, b: Q.DueDelivery) =>
    Number(a.event_id ?? 0) - Number(b.event_id ?? 0) || +new Date(a.created_at) - +new Date(b.created_at);
  await Promise.all(
    [...byEndpoint.values()].map(async (list) => {
      const queue = list.sort(order);
      const done: { d: Q.DueDelivery; outcome: Outcome; at: Date; n: number }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < queue.length && !stopped()) {
          const n = next++;
          const outcome = await send(app, queue[n]);
          done.push({ d: queue[n], outcome, at: app.clock.now(), n });
        }
      };
      await Promise.all(Array.from({ length: Math.min(SENDER.inFlight, queue.length) }, worker));
      try {
        await record(
          app,
          done.sort((a, b) => a.n - b.n),
        );
      } catch (err) {
        // The claims run out and the deliveries are tried again: a receiver may see one twice.
        app.log.error({ err, endpoint: list[0].endpoint_id }, 'webhook deliveries not recorded');
      }
    }),
  );
  return claimed.length;
}
