import { createSession, type Faro, getWebInstrumentations, initializeFaro } from '@grafana/faro-web-sdk';
import { APP_META, rateVital, TELEMETRY, type TelemetryConfigDto } from '@smartconnect/contracts';
import { TelemetryTransport } from './transport.ts';

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
    instrumentations: getWebInstrumentations({ captureConsole: false }),
    sessionTracking: { enabled: true },
    userActionsInstrumentation: { initialActivityTimeout: TELEMETRY.userActionQuietMs },
  });
  observeFirstInput(faro);
  return faro;
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
