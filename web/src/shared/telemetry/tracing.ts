import type { Faro } from '@grafana/faro-web-sdk';
import { TracingInstrumentation } from '@grafana/faro-web-tracing';
import { withoutQuery } from './url.ts';

/**
 * Faro's web tracing: fetch and XHR spans batched 30 spans per 1000 ms (Faro's defaults, the spec's §9 values),
 * sent through the app's transport; same-origin API calls carry a traceparent. Span URLs lose their query.
 */
export function startWebTracing(faro: Faro): void {
  faro.instrumentations.add(
    new TracingInstrumentation({
      instrumentationOptions: {
        fetchInstrumentationOptions: { applyCustomAttributesOnSpan: stripSpanUrl },
        xhrInstrumentationOptions: { applyCustomAttributesOnSpan: stripSpanUrl },
      },
    }),
  );
}

function stripSpanUrl(span: { setAttribute(key: string, value: string): unknown }): void {
  const attributes = (span as { attributes?: Record<string, unknown> }).attributes ?? {};
  for (const key of ['http.url', 'url.full']) {
    const value = attributes[key];
    if (typeof value === 'string') span.setAttribute(key, withoutQuery(value));
  }
}
