import {
  createSession,
  type Faro,
  getWebInstrumentations,
  InternalLoggerLevel,
  initializeFaro,
} from '@grafana/faro-web-sdk';
import type { TelemetryConfigDto } from '@smartconnect/contracts';
import { APP_META, rateVital, TELEMETRY } from '@smartconnect/contracts/constants';
import { TelemetryTransport } from './transport.ts';
import { withoutQuery } from './url.ts';

/** Version and environment of this build (Vite's mode: `production` for `vite build`). */
export const BUILD = {
  version: (import.meta.env.VITE_APP_VERSION as string | undefined) || APP_META.version,
  environment: import.meta.env.MODE || APP_META.environment,
};

/**
 * Starts Faro (loaded in its own chunk, after the first paint): app SmartConnect with this build's version and
 * environment, the spec transport to the configured collector, the web instrumentations (errors, web vitals,
 * sessions, views, user actions with the spec's 100 ms quiet period; Faro's pending-request timeout is the spec's
 * 10 s) and FID, which web-vitals 5 no longer reports, measured from the first input.
 */
export function initTelemetry(config: TelemetryConfigDto): Faro {
  let faro: Faro | undefined;
  const transport = new TelemetryTransport({
    url: new URL(config.url, window.location.origin).toString(),
    apiKey: config.apiKey,
    onInvalidSession: () => faro?.api.setSession(createSession()),
  });
  faro = initializeFaro({
    app: { name: APP_META.name, version: BUILD.version, environment: BUILD.environment },
    transports: [transport],
    // No console capture and no resource timings: both can carry what users typed (search text in API URLs).
    instrumentations: [
      ...getWebInstrumentations({ captureConsole: false, enablePerformanceInstrumentation: false }),
    ],
    // Page URLs leave without query or fragment (a recovery link's token, search text).
    beforeSend: (item) => {
      const page = item.meta.page;
      if (page?.url) item.meta.page = { ...page, url: withoutQuery(page.url) };
      return item;
    },
    sessionTracking: { enabled: true },
    // Telemetry's own failures are only logged, as warnings: they are never the user's errors.
    internalLoggerLevel: InternalLoggerLevel.WARN,
    userActionsInstrumentation: { initialActivityTimeout: TELEMETRY.userActionQuietMs },
  });
  observeFirstInput(faro);
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

function observeFirstInput(faro: Faro): void {
  if (typeof PerformanceObserver === 'undefined') return;
  try {
    const observer = new PerformanceObserver((list) => {
      const entry = list.getEntries()[0] as PerformanceEventTiming | undefined;
      if (!entry) return;
      observer.disconnect();
      const fid = entry.processingStart - entry.startTime;
      faro.api.pushMeasurement(
        { type: 'web-vitals', values: { fid } },
        { context: { rating: rateVital('FID', fid) } },
      );
    });
    observer.observe({ type: 'first-input', buffered: true });
  } catch {
    // Browsers without first-input timing: no FID.
  }
}
