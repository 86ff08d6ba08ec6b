import { TELEMETRY } from '@smartconnect/contracts/constants';

export type TelemetrySenderOptions = {
  url: string;
  apiKey?: string | null;
  /** Starts a new session: the collector answered 202 with an invalid session status. */
  onInvalidSession?: () => void;
  now?: () => number;
  /** Telemetry's own failures are only logged, as warnings. */
  warn?: (message: string, err?: unknown) => void;
};

/** A body as the collector reads it (Faro's transport body): the session id goes in a header too. */
export type TelemetryBody = { meta?: { session?: { id?: string } } };

/**
 * The HTTP side of the spec §7/§8 telemetry transport, without Faro (the public pages' light telemetry and the
 * Faro transport both use it): POSTs the JSON body with the session id header and, when set, the API key header;
 * keepalive when the body is at most 60000 characters; at most 30 requests buffered, 5 in flight. A 429 backs off
 * until its Retry-After (seconds or an HTTP date), else 5000 ms: what is sent meanwhile is dropped. A 202 whose
 * X-Faro-Session-Status is invalid starts a new session. Failures are only logged.
 */
export class TelemetrySender {
  #disabledUntil = 0;
  #pending = 0;
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #now: () => number;
  readonly #warn: (message: string, err?: unknown) => void;

  constructor(private readonly options: TelemetrySenderOptions) {
    this.#now = options.now ?? Date.now;
    this.#warn = options.warn ?? ((message, err) => console.warn(`Telemetry: ${message}`, err ?? ''));
  }

  /** Until when sends are dropped (after a 429), epoch ms. */
  get disabledUntil(): number {
    return this.#disabledUntil;
  }

  async send(body: TelemetryBody, count = 1): Promise<void> {
    if (this.#disabledUntil > this.#now()) {
      this.#warn(
        `Dropping ${count} item(s): rate limited until ${new Date(this.#disabledUntil).toISOString()}`,
      );
      return;
    }
    if (this.#pending >= TELEMETRY.bufferSize) {
      this.#warn(`Dropping ${count} item(s): ${TELEMETRY.bufferSize} requests already buffered`);
      return;
    }
    this.#pending++;
    try {
      if (this.#running >= TELEMETRY.concurrency) await new Promise<void>((r) => this.#waiting.push(r));
      this.#running++;
      try {
        await this.#post(body);
      } finally {
        this.#running--;
        this.#waiting.shift()?.();
      }
    } finally {
      this.#pending--;
    }
  }

  async #post(payload: TelemetryBody): Promise<void> {
    const sessionId = payload.meta?.session?.id;
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
        this.#warn(`Too many requests, backing off until ${new Date(this.#disabledUntil).toISOString()}`);
      } else if (res.status === 202 && res.headers.get(TELEMETRY.sessionStatusHeader) === 'invalid') {
        this.options.onInvalidSession?.();
      }
      await res.text().catch(() => undefined);
    } catch (err) {
      this.#warn('Failed sending telemetry', err);
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
