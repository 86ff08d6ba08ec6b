import type { RealtimeEventType } from '@smartconnect/contracts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { onEvent } from '../../realtime/consumers.ts';
import { PUBLIC_NAMES } from './dispatch-queries.ts';
import { kickWebhooks } from './runner.ts';

/**
 * Event webhooks plug in: a round on every job poll (the durable path: the events log read from its cursor, due
 * retries sent), and a round kicked right after this instance commits a public event (the quick path; a crash
 * before it loses nothing, the next poll reads the log).
 */
export function registerWebhooks(): void {
  registerPeriodic('webhooks', async (app) => kickWebhooks(app));
  for (const type of Object.keys(PUBLIC_NAMES))
    onEvent(type as RealtimeEventType, (app) => kickWebhooks(app));
}
