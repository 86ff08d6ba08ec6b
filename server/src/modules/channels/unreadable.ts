import type { InboundEvent, ParsedEvent } from '../../channels/types.ts';
import { NAME_MAX } from '../../channels/unreadable.ts';
import type { AppContext } from '../../context.ts';
import type { ChannelRow } from './queries.ts';

/**
 * A webhook's events without the parts its adapter could not read that named no client (channels/unreadable.ts):
 * each is a warning in the log, and the latest is recorded on the channel for the admin (ChannelDto.lastUnreadable).
 * The request is still answered 2xx: the provider would retry anything else forever. A client's name (and handle)
 * longer than NAME_MAX is cut: a provider's 100k name would otherwise reach the clients' name index.
 */
export async function setAsideUnreadable(
  app: AppContext,
  row: ChannelRow,
  parsed: ParsedEvent[],
): Promise<InboundEvent[]> {
  const events: InboundEvent[] = [];
  let last: string | undefined;
  for (const e of parsed) {
    if (e.kind !== 'unreadable') {
      events.push(e.kind === 'message' || e.kind === 'postback' || e.kind === 'edit' ? bounded(e) : e);
      continue;
    }
    app.log.warn({ channel: row.id, type: row.type, reason: e.reason }, 'unreadable provider update');
    last = e.reason;
  }
  if (last !== undefined)
    await app.db.query('update channels set unreadable_at = $2, unreadable_reason = $3 where id = $1', [
      row.id,
      app.clock.now(),
      last,
    ]);
  return events;
}

function bounded<E extends Extract<InboundEvent, { message: unknown }>>(e: E): E {
  const { name, username } = e.message.client;
  if (name.length <= NAME_MAX && (username ?? '').length <= NAME_MAX) return e;
  const client = {
    ...e.message.client,
    name: name.slice(0, NAME_MAX),
    ...(username !== undefined ? { username: username.slice(0, NAME_MAX) } : {}),
  };
  return { ...e, message: { ...e.message, client } };
}
