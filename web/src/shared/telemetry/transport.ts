import { BaseTransport, getTransportBody, type TransportItem, VERSION } from '@grafana/faro-core';
import { TelemetrySender, type TelemetrySenderOptions } from './sender.ts';

export type TelemetryTransportOptions = Omit<TelemetrySenderOptions, 'warn'>;

/**
 * The Faro transport of spec §7/§8 (the signed-in app's Faro): Faro's items as one transport body, sent by
 * TelemetrySender (headers, keepalive, buffer 30, concurrency 5, 429 backoff, invalid session, failures logged).
 */
export class TelemetryTransport extends BaseTransport {
  readonly name = '@smartconnect/telemetry-transport';
  readonly version = VERSION;
  readonly #sender: TelemetrySender;

  constructor(private readonly options: TelemetryTransportOptions) {
    super();
    this.#sender = new TelemetrySender({ ...options, warn: (message, err) => this.logWarn(message, err) });
  }

  /** Until when sends are dropped (after a 429), epoch ms. */
  get disabledUntil(): number {
    return this.#sender.disabledUntil;
  }

  override isBatched(): boolean {
    return true;
  }

  override getIgnoreUrls(): (string | RegExp)[] {
    return [this.options.url];
  }

  async send(items: TransportItem | TransportItem[]): Promise<void> {
    try {
      const list = [items].flat();
      await this.#sender.send(getTransportBody(list), list.length);
    } catch (err) {
      this.logWarn('Failed sending telemetry', err);
    }
  }
}
