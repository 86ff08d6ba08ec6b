import { cut, INBOUND_BOUNDS } from '../../channels/bounds.ts';
import type { InboundEvent } from '../../channels/types.ts';
import { type AppContext, stateSlot } from '../../context.ts';
import type { ChannelRow } from './queries.ts';

/** A name found is kept a day; a lookup that failed is not repeated for a few minutes (the provider may be down). */
const FOUND_TTL_MS = 24 * 3600_000;
const MISSED_TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 20_000;
type Names = Map<string, { name: string | null; until: number }>;
const NAMES = stateSlot<Names>('channels.client-names', () => new Map());

function remember(cache: Names, key: string, name: string | null, now: number) {
  if (cache.size >= MAX_ENTRIES) {
    // Oldest first (insertion order): drop a tenth.
    let n = MAX_ENTRIES / 10;
    for (const k of cache.keys()) {
      cache.delete(k);
      if (--n <= 0) break;
    }
  }
  cache.set(key, { name, until: now + (name ? FOUND_TTL_MS : MISSED_TTL_MS) });
}

/**
 * Real names for the clients of messages whose provider update has none (`client.nameUnknown`), asked of the
 * channel's adapter once per client a day and cached in this process. Failures are harmless: a client already
 * known keeps their stored name (the stand-in is dropped), a new one starts with the stand-in.
 */
export async function withClientNames(
  app: AppContext,
  row: ChannelRow,
  lookUp: ((ids: string[]) => Promise<Record<string, string>>) | undefined,
  events: InboundEvent[],
): Promise<InboundEvent[]> {
  const unknown = events.filter(
    (e): e is Extract<InboundEvent, { kind: 'message' | 'postback' }> =>
      (e.kind === 'message' || e.kind === 'postback') && e.message.client.nameUnknown === true,
  );
  if (!unknown.length) return events;
  const now = Date.now();
  const cache = app.state.of(app, NAMES);
  const names = new Map<string, string | null>();
  const ask: string[] = [];
  for (const e of unknown) {
    const id = e.message.client.externalId;
    const hit = cache.get(`${row.id}:${id}`);
    if (hit && hit.until > now) names.set(id, hit.name);
    else if (!ask.includes(id)) ask.push(id);
  }
  if (ask.length && lookUp) {
    const found = await lookUp(ask).catch((err) => {
      app.log.warn({ err, channel: row.id }, 'client name lookup failed');
      return {} as Record<string, string>;
    });
    for (const id of ask) {
      const name = cut(found[id]?.trim() ?? '', INBOUND_BOUNDS.name) || null;
      names.set(id, name);
      remember(cache, `${row.id}:${id}`, name, now);
    }
  }
  const missing = [...new Set(unknown.map((e) => e.message.client.externalId))].filter(
    (id) => !names.get(id),
  );
  const known = missing.length
    ? new Set(
        (
          await app.db.query<{ external_id: string }>(
            'select external_id from contacts where channel_id = $1 and external_id = any($2::text[])',
            [row.id, missing],
          )
        ).map((r) => r.external_id),
      )
    : new Set<string>();
  return events.map((e) => {
    if ((e.kind !== 'message' && e.kind !== 'postback') || !e.message.client.nameUnknown) return e;
    const { nameUnknown: _, ...client } = e.message.client;
    const name = names.get(client.externalId);
    if (name) client.name = name;
    else if (known.has(client.externalId)) client.name = '';
    return { ...e, message: { ...e.message, client } };
  });
}
