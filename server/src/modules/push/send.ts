import type { PushPayload } from '@smartconnect/contracts';
import { Counter } from 'prom-client';
import webpush from 'web-push';
import type { AppContext } from '../../context.ts';
import { metricsOf } from '../../lib/metrics.ts';
import * as Q from './queries.ts';
import { vapidKeys } from './vapid.ts';

/** How one push ended: taken by the push service, gone (404/410: the subscription was removed), or failed. */
export type PushOutcome = 'sent' | 'gone' | 'failed';

export const PUSH_SEND = {
  /** A notification older than this is of no use any more: the push service may drop it (the TTL header). */
  ttlSeconds: 24 * 3600,
  timeoutMs: 10_000,
  /** Failures in a row after which a subscription is dropped (the user subscribes again from the page). */
  maxFailures: 20,
} as const;

const METRIC = 'smartconnect_push_notifications_total';

/**
 * Pushes by result: sent, gone, failed, and skipped ones (open_tab: the user has a tab open; dropped: the queue
 * was full). One counter per metrics registry (two apps on one database share it).
 */
export function pushCounter(app: AppContext): Counter<'result'> {
  const { registry } = metricsOf(app);
  const found = registry.getSingleMetric(METRIC) as Counter<'result'> | undefined;
  return (
    found ??
    new Counter({
      name: METRIC,
      help: 'Web push notifications to operators by result (sent, gone, failed, open_tab, dropped)',
      labelNames: ['result'],
      registers: [registry],
    })
  );
}

/**
 * Sends one notification to one browser subscription. The endpoint is a URL the browser chose: web-push only
 * builds the request (encrypted aes128gcm body, VAPID headers) and the guarded client sends it (no private
 * address, no redirect, bounded time). 404/410 remove the subscription; never throws.
 */
export async function sendPush(
  app: AppContext,
  sub: Q.SubscriptionRow,
  payload: PushPayload,
): Promise<PushOutcome> {
  let outcome: PushOutcome = 'failed';
  let status: number | null = null;
  try {
    const keys = await vapidKeys(app);
    const details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: keys,
        TTL: PUSH_SEND.ttlSeconds,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      },
    );
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) {
      // The client sets the length of the body itself.
      if (name.toLowerCase() !== 'content-length') headers[name] = String(value);
    }
    const answer = await app.outbound.fetch(details.endpoint, {
      method: details.method,
      headers,
      body: details.body ?? undefined,
      timeoutMs: PUSH_SEND.timeoutMs,
      maxBytes: 4096,
    });
    status = answer.status;
    outcome = status >= 200 && status < 300 ? 'sent' : status === 404 || status === 410 ? 'gone' : 'failed';
  } catch (err) {
    app.log.warn({ err, subscriptionId: sub.id }, 'push: the request failed');
  }
  try {
    if (outcome === 'gone') await Q.deleteSubscription(app.db, sub.organisation_id, sub.id);
    else await Q.markSent(app.db, sub.organisation_id, sub.id, outcome === 'sent', PUSH_SEND.maxFailures);
  } catch (err) {
    app.log.warn({ err, subscriptionId: sub.id }, 'push: the outcome was not recorded');
  }
  if (outcome === 'failed' && status !== null)
    app.log.warn({ subscriptionId: sub.id, status }, 'push: the push service refused the notification');
  pushCounter(app).inc({ result: outcome });
  return outcome;
}
