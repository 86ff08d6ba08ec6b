import type { AppContext } from '../../context.ts';

/**
 * How fast a mailing may send on each channel type: the provider's documented limit for messages to different
 * users (see DECISIONS.md "Mailings" for the sources). A channel's sender never goes above it; a mailing may ask
 * for less (its ratePerSecond). `MAILING_RATE_LIMITS` overrides them (`telegram=20,whatsapp=250`; 0: no limit).
 */
export const DOCUMENTED_RATES: Record<string, number> = {
  // Bot API FAQ: "no more than 30 messages per second" for bulk notifications.
  telegram: 30,
  // Cloud API throughput: 80 messages per second per business phone number by default.
  whatsapp: 80,
  // VK API: a community token makes at most 20 requests per second.
  vk_bot: 20,
  vk: 20,
  // Viber's REST bot API and the regional gateways publish no per-second figure: a conservative one.
  viber_bot: 20,
  viber: 20,
  // Meta's Send API (Instagram, Messenger): its per-page budget, kept low.
  instagram: 20,
  facebook: 20,
  // SMTP relays commonly cap senders well below this; a tenant's own relay can be told otherwise.
  email: 5,
  // Our own API channel posts to the tenant's endpoint.
  api: 50,
};

/** `telegram=20, whatsapp=250` → { telegram: 20, whatsapp: 250 }; entries that do not parse are left out. */
export function parseRateLimits(value: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (value ?? '').split(',')) {
    const m = /^\s*([a-z_]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (m) out[m[1]] = Number(m[2]);
  }
  return out;
}

/** The rate the sender keeps for a mailing (messages a second), or null for none. */
export function effectiveRate(app: AppContext, channelType: string, asked: number | null): number | null {
  const override = parseRateLimits(app.config.env.MAILING_RATE_LIMITS)[channelType];
  const limit = override !== undefined ? override || null : (DOCUMENTED_RATES[channelType] ?? null);
  if (asked == null) return limit;
  return limit == null ? asked : Math.min(asked, limit);
}

/** A mailing's send window in minutes of the local day, or null when it sends at any time. */
export const windowOf = (m: { window_from: number | null; window_to: number | null }) =>
  m.window_from != null && m.window_to != null ? { from: m.window_from, to: m.window_to } : null;

/** Minutes since local midnight in a time zone. */
export function localMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  })
    .formatToParts(at)
    .reduce<Record<string, string>>((acc, p) => {
      acc[p.type] = p.value;
      return acc;
    }, {});
  return Number(parts.hour) * 60 + Number(parts.minute);
}

/** Whether a local time of day falls in the window [from, to) (a window past midnight, e.g. 22:00-02:00, wraps). */
export function inWindow(window: { from: number; to: number }, timeZone: string, at: Date): boolean {
  const m = localMinutes(timeZone, at);
  return window.from < window.to ? m >= window.from && m < window.to : m >= window.from || m < window.to;
}

/** Milliseconds until the window opens next (0 when open now), to the minute. */
export function msUntilWindow(window: { from: number; to: number }, timeZone: string, at: Date): number {
  if (inWindow(window, timeZone, at)) return 0;
  const m = localMinutes(timeZone, at);
  const wait = (window.from - m + 1440) % 1440 || 1440;
  return wait * 60_000 - at.getUTCSeconds() * 1000 - at.getUTCMilliseconds();
}

/**
 * The most different clients a channel's mailings may reach in a rolling 24 hours: the provider's figure for the
 * channel (WhatsApp's messaging limit tier) and `MAILING_DAILY_LIMITS` per type (`whatsapp=1000`), the lower of the
 * two; null when neither sets one.
 */
export function effectiveDailyLimit(
  app: AppContext,
  channelType: string,
  provider: number | null,
): number | null {
  const set = parseRateLimits(app.config.env.MAILING_DAILY_LIMITS)[channelType];
  const own = set ? set : null;
  if (provider == null) return own;
  return own == null ? provider : Math.min(own, provider);
}
