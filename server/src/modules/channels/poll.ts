import { adapterFor } from '../../channels/registry.ts';
import type { Poller } from '../../jobs/polls.ts';
import { recordChannelProblem, resolveChannelProblems } from './problems.ts';
import * as Q from './queries.ts';
import { receivePolled } from './receive.ts';
import { adapterChannel, adapterContext, takesInbound } from './service.ts';

/** Channels without a poll of their own (a row left from another type) are looked at again this much later. */
const IDLE_ROW_MS = 60 * 60_000;

/**
 * One session of a pull channel claimed by the job runner: its adapter reads the provider from the stored cursor
 * and hands what it read to ingest, exactly as a webhook's events are acted on.
 */
export const channelPoller: Poller = async (app, run) => {
  const row = await Q.findChannelById(app.db, run.channelId);
  const live = row && row.status === 'active' && row.org_status === 'active';
  if (!row || !live) return { againInMs: IDLE_ROW_MS };
  const adapter = adapterFor(row.type);
  if (!adapter.poll) return { againInMs: IDLE_ROW_MS };
  const channel = adapterChannel(app, row);
  return adapter.poll(adapterContext(app), channel, {
    cursor: run.cursor,
    saveCursor: run.saveCursor,
    signal: run.signal,
    receive: async (events) => {
      // Deactivated (or its organisation) while the session ran: nothing is stored, the mail stays in the mailbox
      // and is read once the channel is active again (the cursor does not move past it).
      if (!(await takesInbound(app, row.id))) throw new Error('channel no longer active');
      return receivePolled(app, row, channel, events);
    },
    problem: (kind, detail) => recordChannelProblem(app, row, kind, detail),
    working: () => resolveChannelProblems(app, row, ['token_refused', 'unreachable']),
  });
};
