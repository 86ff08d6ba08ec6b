import { type AppContext, stateSlot } from '../context.ts';

/**
 * The job runner is stopping (a graceful shutdown): the loops that claim work (pipeline, timers, outbox) claim no
 * further batch, and a timer batch gives back what it has not fired yet, so another instance takes it over at once
 * instead of waiting out a lease.
 */
const STOPPING = stateSlot<{ on: boolean }>('jobs.stopping', () => ({ on: false }));

export function markJobsStopping(app: AppContext): void {
  app.state.of(app, STOPPING).on = true;
}

export const jobsStopping = (app: AppContext): boolean => app.state.peek(STOPPING)?.on === true;
