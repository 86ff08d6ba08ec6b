import type { TestServer } from '../helpers.ts';
import { until } from './cluster-fixtures.ts';

/** A pull channel's poll row as the job runner keeps it (jobs/polls.ts), its cursor as the type's adapter stores it. */
export type PollRow<C> = { claimed_by: string | null; due_at: Date; cursor: C };

/**
 * Drives a pull channel's polling passes on a test server's controllable clock: `pollRow` reads its row,
 * `passDone` waits until a pass has ended and the row is due later, `nextPass` moves the clock to the next pass and
 * waits for it to end. `server` is read at each call (a suite's server is started in its `before`).
 */
export function pollPasses<C = Record<string, unknown>>(server: () => TestServer) {
  const pollRow = async (channelId: string) =>
    (
      await server().db.query<PollRow<C>>(
        'select claimed_by, due_at, cursor from channel_polls where channel_id = $1',
        [channelId],
      )
    )[0];
  const passDone = (channelId: string) =>
    until(async () => {
      const row = await pollRow(channelId);
      return (
        (row && row.claimed_by === null && row.due_at.getTime() > server().clock.now().getTime() && row) ||
        undefined
      );
    }, 'a poll pass to end');
  const nextPass = async (channelId: string) => {
    const row = await passDone(channelId);
    // Due now: the job runner claims it within a second; the pass ends due later than now again.
    server().clock.advance(row.due_at.getTime() - server().clock.now().getTime());
    return passDone(channelId);
  };
  return { pollRow, passDone, nextPass };
}
