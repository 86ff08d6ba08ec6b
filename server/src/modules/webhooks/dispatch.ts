import { WEBHOOK_LIMITS } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import * as D from './dispatch-queries.ts';

export const DISPATCH = {
  /** Events read per transaction. */
  batch: 2_000,
  /**
   * An id below the newest read that has not committed yet is looked for again this long: a transaction takes its
   * event ids just before it commits (realtime/emit.ts), so one that commits after a higher id does so within
   * milliseconds; ids still missing after this rolled back.
   */
  graceMs: 30_000,
  /** More missing ids than this in one read are a rolled-back batch, not late commits: not remembered. */
  missingMax: 5_000,
} as const;

/**
 * Turns committed events into delivery rows, from the stored cursor, under its row lock (one instance at a time).
 * Nothing committed is skipped: an id seen missing below the cursor is looked for again for `graceMs`, and the
 * deliveries are unique by (endpoint, event), so reading an event again sends it once. Answers the number of
 * deliveries made.
 */
export async function dispatchEvents(app: AppContext): Promise<number> {
  const now = app.clock.now();
  const retryUntil = new Date(now.getTime() + WEBHOOK_LIMITS.retryForMs);
  let made = 0;
  let more = true;
  for (let round = 0; more && round < 10; round++) {
    more = await app.db.tx(async (q) => {
      const cursor = await D.lockCursor(q);
      if (!cursor) return false;
      const wallClock = Date.now();
      const missing = Object.keys(cursor.missing).map(Number);
      const late = await D.committedIds(q, missing);
      const fresh = await D.eventIdsAfter(q, cursor.scannedTo, DISPATCH.batch);
      made += await D.fanOut(q, [...late, ...fresh], now, retryUntil);

      const found = new Set(late);
      const next: Record<string, number> = {};
      for (const id of missing)
        if (!found.has(id) && wallClock - cursor.missing[id] < DISPATCH.graceMs)
          next[id] = cursor.missing[id];
      let expected = cursor.scannedTo + 1;
      const gaps: number[] = [];
      for (const id of fresh) {
        for (; expected < id && gaps.length <= DISPATCH.missingMax; expected++) gaps.push(expected);
        expected = id + 1;
      }
      if (gaps.length <= DISPATCH.missingMax) for (const id of gaps) next[id] = wallClock;
      const scannedTo = fresh.length ? fresh[fresh.length - 1] : cursor.scannedTo;
      await D.saveCursor(q, { scannedTo, missing: next });
      return fresh.length === DISPATCH.batch;
    });
  }
  return made;
}
