import type { TelemetryConfigDto } from '@smartconnect/contracts';
import { APP_META, rateVital, type WebVital } from '@smartconnect/contracts/constants';
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';
import { BUILD } from './build.ts';
import { observeFirstInput } from './first-input.ts';
import { TelemetrySender } from './sender.ts';
import { withoutQuery } from './url.ts';

type Item =
  | { kind: 'measurements'; value: unknown }
  | { kind: 'exceptions'; value: unknown }
  | { kind: 'events'; value: unknown };

/** Faro batches items for 250 ms (its default), at most 50 a request: the same here. */
const BATCH_MS = 250;
const BATCH_ITEMS = 50;

/** A session id as Faro makes them (10 letters and digits). */
function sessionId(): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => chars[b % chars.length]).join('');
}

/**
 * The public pages' web telemetry (login, recovery, sign-up, status pages: no signed-in user), without the Faro SDK:
 * web-vitals (FCP, LCP, CLS, INP, TTFB, and FID from the first input) rated with the spec's thresholds, uncaught
 * errors and a session start, in Faro's transport body, sent by TelemetrySender (the same §7/§8 transport rules as
 * the signed-in app's Faro). Once a session token appears (the user signed in on this page), the signed-in app's
 * Faro starts in this session for the app's traces, errors and actions; the vitals of this page load stay here.
 */
export function startPublicTelemetry(config: TelemetryConfigDto): void {
  let session = sessionId();
  const sender = new TelemetrySender({
    url: new URL(config.url, window.location.origin).toString(),
    apiKey: config.apiKey,
    onInvalidSession: () => {
      session = sessionId();
      push({ kind: 'events', value: { name: 'session_start', timestamp: new Date().toISOString() } });
    },
  });

  let queue: Item[] = [];
  let timer: number | undefined;
  const flush = () => {
    window.clearTimeout(timer);
    timer = undefined;
    while (queue.length) {
      const batch = queue.slice(0, BATCH_ITEMS);
      queue = queue.slice(BATCH_ITEMS);
      const body: Record<string, unknown> = {
        meta: {
          sdk: { name: 'smartconnect-public-telemetry', version: BUILD.version },
          app: { name: APP_META.name, version: BUILD.version, environment: BUILD.environment },
          session: { id: session },
          page: { url: withoutQuery(window.location.href) },
        },
      };
      for (const item of batch) {
        body[item.kind] = [...((body[item.kind] as unknown[] | undefined) ?? []), item.value];
      }
      void sender.send(body as { meta: { session: { id: string } } }, batch.length);
    }
  };
  const push = (item: Item) => {
    queue.push(item);
    if (document.visibilityState === 'hidden') queueMicrotask(flush);
    else timer ??= window.setTimeout(flush, BATCH_MS);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') queueMicrotask(flush);
  });
  window.addEventListener('pagehide', flush);

  const measure = (name: WebVital, values: Record<string, number>, context: Record<string, string> = {}) =>
    push({
      kind: 'measurements',
      value: {
        type: 'web-vitals',
        values,
        timestamp: new Date().toISOString(),
        context: { rating: rateVital(name, values[name.toLowerCase()] ?? 0), ...context },
      },
    });
  const vital = (metric: Metric) =>
    measure(
      metric.name as WebVital,
      { [metric.name.toLowerCase()]: metric.value, delta: metric.delta },
      { id: metric.id, navigation_type: metric.navigationType },
    );
  onFCP(vital);
  onLCP(vital);
  onCLS(vital);
  onINP(vital);
  onTTFB(vital);
  observeFirstInput((fid) => measure('FID', { fid }));

  const exception = (type: string, value: string) =>
    push({ kind: 'exceptions', value: { type, value, timestamp: new Date().toISOString() } });
  const onError = (e: ErrorEvent) =>
    exception(e.error instanceof Error ? e.error.name : 'Error', e.message || String(e.error));
  const onRejection = (e: PromiseRejectionEvent) => {
    const reason = e.reason as unknown;
    if (reason instanceof Error) exception(reason.name, reason.message);
    else
      exception('UnhandledRejection', `Non-Error promise rejection captured with value: ${String(reason)}`);
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  push({ kind: 'events', value: { name: 'session_start', timestamp: new Date().toISOString() } });

  // Signed in on this page: the signed-in app's Faro takes over errors (and adds traces) in the same session.
  const timerId = window.setInterval(() => {
    if (!localStorage.getItem('token')) return;
    window.clearInterval(timerId);
    void import('./faro.ts')
      .then((m) => {
        window.removeEventListener('error', onError);
        window.removeEventListener('unhandledrejection', onRejection);
        m.initTelemetry(config, { sessionId: session, vitals: false });
      })
      .catch((err: unknown) => console.warn('Telemetry: Faro not started', err));
  }, 2000);
}
