import {
  BaseTransport,
  createPromiseBuffer,
  getTransportBody,
  type PromiseBuffer,
  type TransportItem,
  VERSION,
} from '@grafana/faro-core';
import { TELEMETRY } from '@smartconnect/contracts/constants';

export type TelemetryTransportOptions = {
  url: string;
  apiKey?: string | null;
  /** Starts a new session: the collector answered 202 with an invalid session status. */
  onInvalidSession?: () => void;
  now?: () => number;
};

/**
 * The Faro transport of spec §7/§8: POSTs the JSON body to the collector with the session id header and, when set,
 * the API key header; keepalive when the body is at most 60000 characters; at most 30 requests buffered, 5 in
 * flight. A 429 backs off until its Retry-After (seconds or an HTTP date), else 5000 ms: what is sent meanwhile is
 * dropped. A 202 whose X-Faro-Session-Status is invalid starts a new session. Failures are only logged.
 */
export class TelemetryTransport extends BaseTransport {
  readonly name = '@smartconnect/telemetry-transport';
  readonly version = VERSION;
  #disabledUntil = 0;
  readonly #buffer: PromiseBuffer<void>;
  readonly #now: () => number;

  constructor(private readonly options: TelemetryTransportOptions) {
    super();
    this.#now = options.now ?? Date.now;
    this.#buffer = createPromiseBuffer({ size: TELEMETRY.bufferSize, concurrency: TELEMETRY.concurrency });
  }

  /** Until when sends are dropped (after a 429), epoch ms. */
  get disabledUntil(): number {
    return this.#disabledUntil;
  }

  override isBatched(): boolean {
    return true;
  }

  override getIgnoreUrls(): (string | RegExp)[] {
    return [this.options.url];
  }

  async send(items: TransportItem | TransportItem[]): Promise<void> {
    try {
      if (this.#disabledUntil > this.#now()) {
        this.logWarn(
          `Dropping ${[items].flat().length} item(s): rate limited until ${new Date(this.#disabledUntil).toISOString()}`,
        );
        return;
      }
      await this.#buffer.add(() => this.#post([items].flat()));
    } catch (err) {
      this.logWarn('Failed sending telemetry', err);
    }
  }

  async #post(items: TransportItem[]): Promise<void> {
    const payload = getTransportBody(items);
    const sessionId = payload.meta.session?.id;
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers[TELEMETRY.apiKeyHeader] = this.options.apiKey;
    if (sessionId) headers[TELEMETRY.sessionHeader] = sessionId;
    try {
      const res = await fetch(this.options.url, {
        method: 'POST',
        headers,
        body,
        keepalive: body.length <= TELEMETRY.keepaliveLimit,
      });
      if (res.status === 429) {
        this.#disabledUntil = this.#now() + this.#retryAfterMs(res.headers.get('retry-after'));
        this.logWarn(`Too many requests, backing off until ${new Date(this.#disabledUntil).toISOString()}`);
      } else if (res.status === 202 && res.headers.get(TELEMETRY.sessionStatusHeader) === 'invalid') {
        this.options.onInvalidSession?.();
      }
      await res.text().catch(() => undefined);
    } catch (err) {
      this.logWarn('Failed sending telemetry', err);
    }
  }

  /** Retry-After as seconds or an HTTP date; without one (or unreadable), the default backoff. */
  #retryAfterMs(header: string | null): number {
    if (header) {
      const value = header.trim();
      if (/^\d+$/.test(value)) return Number(value) * 1000;
      const at = Date.parse(value);
      if (!Number.isNaN(at)) return Math.max(0, at - this.#now());
    }
    return TELEMETRY.backoffMs;
  }
}
