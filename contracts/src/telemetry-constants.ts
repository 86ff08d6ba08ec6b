// The telemetry constants without schemas (no zod): the web app's lazy telemetry chunk imports only these.

/** Spec §9: the application's display name, version and environment (the build may set the last two). */
export const APP_META = { name: 'SmartConnect', version: '1.0.0', environment: 'production' } as const;

/** Spec §9 telemetry constants (they are the Grafana Faro web SDK's; the web app sets them explicitly). */
export const TELEMETRY = {
  bufferSize: 30,
  concurrency: 5,
  backoffMs: 5000,
  keepaliveLimit: 60000,
  traceBatch: 30,
  traceDelayMs: 1000,
  userActionQuietMs: 100,
  pendingRequestTimeoutMs: 10_000,
  sessionHeader: 'x-faro-session-id',
  apiKeyHeader: 'x-api-key',
  sessionStatusHeader: 'x-faro-session-status',
} as const;

export const WEB_VITALS = ['FCP', 'LCP', 'CLS', 'INP', 'FID', 'TTFB'] as const;
export type WebVital = (typeof WEB_VITALS)[number];
export type VitalRating = 'good' | 'needs-improvement' | 'poor';

/** Spec §9 web-vitals thresholds [good, poor]: good up to the first, poor above the second (ms; CLS unitless). */
export const WEB_VITAL_THRESHOLDS: Record<WebVital, readonly [number, number]> = {
  FCP: [1800, 3000],
  LCP: [2500, 4000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  FID: [100, 300],
  TTFB: [800, 1800],
};

/** Rates a value as web-vitals does: at most `good` is good, above `poor` is poor, between needs improvement. */
export function rateVital(name: WebVital, value: number): VitalRating {
  const [good, poor] = WEB_VITAL_THRESHOLDS[name];
  if (value <= good) return 'good';
  if (value <= poor) return 'needs-improvement';
  return 'poor';
}
