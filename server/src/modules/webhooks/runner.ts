import type { AppContext } from '../../context.ts';
import { stateSlot } from '../../context.ts';
import { dispatchEvents } from './dispatch.ts';
import { sendDue } from './send.ts';

type Runner = { running: Promise<void> | null; again: boolean; stopped: boolean };

/** This process's webhook work in flight: one round at a time, awaited when the app closes. */
const RUNNER = stateSlot<Runner>(
  'webhooks.runner',
  () => ({ running: null, again: false, stopped: false }),
  async (runner) => {
    runner.stopped = true;
    await runner.running;
  },
);

/** Rounds of sending in one run: a backlog larger than this waits for the next kick. */
const SEND_ROUNDS = 20;

/**
 * Starts a round in the background, or asks the running one for another: the events log is read into deliveries
 * (dispatch.ts) and the due deliveries are sent (send.ts). Slow receivers never hold the job poll that kicks it.
 */
export function kickWebhooks(app: AppContext): void {
  const runner = app.state.of(app, RUNNER);
  if (runner.stopped) return;
  if (runner.running) {
    runner.again = true;
    return;
  }
  runner.running = (async () => {
    do {
      runner.again = false;
      await dispatchEvents(app);
      for (let round = 0; round < SEND_ROUNDS && !runner.stopped; round++)
        if (!(await sendDue(app, () => runner.stopped))) break;
    } while (runner.again && !runner.stopped);
  })()
    .catch((err) => {
      if (!runner.stopped) app.log.error({ err }, 'webhook round failed');
    })
    .finally(() => {
      runner.running = null;
    });
}
