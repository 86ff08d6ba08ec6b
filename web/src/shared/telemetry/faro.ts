import {
  createSession,
  type Faro,
  genShortID,
  getWebInstrumentations,
  InternalLoggerLevel,
  initializeFaro,
  STORAGE_KEY,
} from '@grafana/faro-web-sdk';
import type { TelemetryConfigDto } from '@smartconnect/contracts';
import { APP_META, rateVital, TELEMETRY } from '@smartconnect/contracts/constants';
import { BUILD } from './build.ts';
import { observeFirstInput } from './first-input.ts';
import { TelemetryTransport } from './transport.ts';
import { withoutQuery } from './url.ts';

export { BUILD };

/** When Faro starts after the public pages' light telemetry (a sign-in on this page): its session, its vitals. */
export type FaroStart = { sessionId?: string; vitals?: boolean };

const WEB_VITALS_INSTRUMENTATION = '@grafana/faro-web-sdk:instrumentation-web-vitals';

/**
 * Starts Faro for the signed-in app (loaded in its own chunk, after the first paint; the public pages send with
 * public-telemetry.ts instead): app SmartConnect with this build's version and environment, the spec transport to
 * the configured collector, the web instrumentations (errors, web vitals, sessions, views, user actions with the
 * spec's 100 ms quiet period; Faro's pending-request timeout is the spec's 10 s) and FID, which web-vitals 5 no
 * longer reports, measured from the first input. After a sign-in on a public page it continues that page's session
 * and leaves this page load's vitals to the light telemetry that already reports them (`vitals: false`).
 */
export function initTelemetry(config: TelemetryConfigDto, start: FaroStart = {}): Faro {
  let faro: Faro | undefined;
  const vitals = start.vitals !== false;
  const inherited = start.sessionId ? [start.sessionId] : [];
  if (start.sessionId) sessionStorage.removeItem(STORAGE_KEY);
  const transport = new TelemetryTransport({
    url: new URL(config.url, window.location.origin).toString(),
    apiKey: config.apiKey,
    onInvalidSession: () => faro?.api.setSession(createSession()),
  });
  faro = initializeFaro({
    app: { name: APP_META.name, version: BUILD.version, environment: BUILD.environment },
    transports: [transport],
    // No console capture and no resource timings: both can carry what users typed (search text in API URLs).
    instrumentations: getWebInstrumentations({
      captureConsole: false,
      enablePerformanceInstrumentation: false,
    }).filter((i) => vitals || i.name !== WEB_VITALS_INSTRUMENTATION),
    // Page URLs leave without query or fragment (a recovery link's token, search text).
    beforeSend: (item) => {
      const page = item.meta.page;
      if (page?.url) item.meta.page = { ...page, url: withoutQuery(page.url) };
      return item;
    },
    // After a sign-in on a public page the first session is that page's (Faro makes a stored session of the tab
    // its own first, so that is cleared).
    sessionTracking: { enabled: true, generateSessionId: () => inherited.shift() ?? genShortID() },
    // Telemetry's own failures are only logged, as warnings: they are never the user's errors.
    internalLoggerLevel: InternalLoggerLevel.WARN,
    userActionsInstrumentation: { initialActivityTimeout: TELEMETRY.userActionQuietMs },
  });
  const f = faro;
  if (vitals)
    observeFirstInput((fid) =>
      f.api.pushMeasurement(
        { type: 'web-vitals', values: { fid } },
        { context: { rating: rateVital('FID', fid) } },
      ),
    );
  traceOnceSignedIn(faro);
  return faro;
}

/**
 * Web tracing (spans of the app's own API calls, whose traceparent the server continues) is for the signed-in
 * app: its chunk loads once a session token is there, never for the login page alone.
 */
function traceOnceSignedIn(faro: Faro): void {
  const start = () => {
    void import('./tracing.ts')
      .then((m) => m.startWebTracing(faro))
      .catch((err: unknown) => faro.internalLogger.warn('Web tracing not started', err));
  };
  if (localStorage.getItem('token')) {
    start();
    return;
  }
  const timer = window.setInterval(() => {
    if (!localStorage.getItem('token')) return;
    window.clearInterval(timer);
    start();
  }, 2000);
}
