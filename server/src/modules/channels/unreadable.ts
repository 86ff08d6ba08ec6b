import type { InboundEvent, ParsedEvent } from '../../channels/types.ts';
import { type AppContext, stateSlot } from '../../context.ts';
import { recordChannelProblem, resolveChannelProblems } from './problems.ts';
import type { ChannelRow } from './queries.ts';

/**
 * Channels whose webhook problem may be open, as this instance knows: a readable update then ends it. A channel
 * that once sent unreadable updates (another instance saw them, or before a restart) is checked once.
 */
const WATCH = stateSlot('channels.unreadable', () => ({
  suspects: new Set<string>(),
  checked: new Set<string>(),
  /** `${channel type} ${what}` of the ignored updates already logged. */
  ignored: new Set<string>(),
}));

/**
 * A webhook's events without the updates its adapter leaves (logged once per kind), and without the parts it could
 * not read that named no client (channels/unreadable.ts):
 * each is a warning in the log, and the latest is recorded on the channel for the admin (ChannelDto.lastUnreadable).
 * The request is still answered 2xx: the provider would retry anything else forever. (What is read is bounded field
 * by field where it is acted on: channels/bounds.ts, from receive.ts.)
 */
export async function setAsideUnreadable(
  app: AppContext,
  row: ChannelRow,
  parsed: ParsedEvent[],
): Promise<InboundEvent[]> {
  const events: InboundEvent[] = [];
  let last: string | undefined;
  const { suspects, checked, ignored } = app.state.of(app, WATCH);
  for (const e of parsed) {
    if (e.kind === 'ignored') {
      // The provider's own word (a key of its payload): bounded before it is kept or logged.
      const what = e.what.slice(0, 64);
      const key = `${row.type} ${what}`;
      if (!ignored.has(key) && ignored.size < 1_000) {
        ignored.add(key);
        app.log.info({ channel: row.id, type: row.type, what }, 'provider update ignored');
      }
      continue;
    }
    if (e.kind !== 'unreadable') {
      events.push(e);
      continue;
    }
    app.log.warn({ channel: row.id, type: row.type, reason: e.reason }, 'unreadable provider update');
    last = e.reason;
  }
  if (last !== undefined) {
    await app.db.query('update channels set unreadable_at = $2, unreadable_reason = $3 where id = $1', [
      row.id,
      app.clock.now(),
      last,
    ]);
    suspects.add(row.id);
    await recordChannelProblem(app, row, 'webhook_failing', last);
  } else if (events.length && (suspects.has(row.id) || (row.unreadable_at && !checked.has(row.id)))) {
    suspects.delete(row.id);
    checked.add(row.id);
    await resolveChannelProblems(app, row, ['webhook_failing']);
  }
  return events;
}
