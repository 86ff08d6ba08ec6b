import type { AppContext } from '../context.ts';
import type { Tx } from '../modules/chats/lifecycle.ts';
import { fireAutoClose, fireOverdue, fireRedistribute } from '../modules/chats/timers.ts';
import { fireAutoBreak } from '../modules/presence/service.ts';
import { withEvents } from '../realtime/emit.ts';
import * as Q from './queries.ts';

/** What each timer kind does when it fires; each handler re-checks the state, so a stale timer is harmless. */
const handlers: Record<Q.TimerKind, (tx: Tx, orgId: string, subjectId: string) => Promise<void>> = {
  auto_close: fireAutoClose,
  redistribute: fireRedistribute,
  overdue_half: (tx, org, id) => fireOverdue(tx, org, id, 'half_expired'),
  overdue_expired: (tx, org, id) => fireOverdue(tx, org, id, 'expired'),
  auto_break: fireAutoBreak,
};

const RETRY_FAILED_MS = 60_000;

/**
 * Fires every timer due by `app.clock.now()`, each in its own transaction with its row locked
 * (FOR UPDATE SKIP LOCKED): across instances each timer fires exactly once. A handler that throws
 * rolls its change back and the timer is retried a minute later.
 */
export async function runDueTimers(app: AppContext, max = 1000): Promise<number> {
  let fired = 0;
  while (fired < max) {
    const now = app.clock.now();
    const claimed: { row?: Q.TimerRow } = {};
    try {
      const more = await withEvents(app, async (q, emit) => {
        const row = await Q.claimDueTimer(q, now);
        if (!row) return false;
        claimed.row = row;
        await Q.deleteTimer(q, row.id);
        await handlers[row.kind]?.({ q, emit, now }, row.organisation_id, row.subject_id);
        return true;
      });
      if (!more) return fired;
    } catch (err) {
      if (!claimed.row) throw err;
      app.log.error({ err, timer: claimed.row }, 'timer failed');
      await Q.postponeTimer(app.db, claimed.row.id, new Date(now.getTime() + RETRY_FAILED_MS));
    }
    fired++;
  }
  return fired;
}
