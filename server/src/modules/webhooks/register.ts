import type { LoggedEventType } from '@smartconnect/contracts';
import { registerPeriodic } from '../../jobs/periodic.ts';
import { plug } from '../../plug-points.ts';
import { onEvent } from '../../realtime/consumers.ts';
import { LOG_ONLY_READERS } from '../../realtime/log-only.ts';
import { PUBLIC_NAMES, subscribedOrganisations } from './dispatch-queries.ts';
import { kickWebhooks } from './runner.ts';

/**
 * Event webhooks plug in: a round on every job poll (the durable path: the events log read from its cursor, due
 * retries sent), and a round kicked right after this instance commits a public event (the quick path; a crash
 * before it loses nothing, the next poll reads the log). Log-only events (client, rating and mailing ones) are
 * written only for organisations with an enabled endpoint subscribed to their type: nobody else reads them.
 */
export function registerWebhooks(): void {
  registerPeriodic('webhooks', async (app) => kickWebhooks(app));
  for (const type of Object.keys(PUBLIC_NAMES)) onEvent(type as LoggedEventType, (app) => kickWebhooks(app));
  plug(LOG_ONLY_READERS, async (q, type, organisationIds) => {
    const name = PUBLIC_NAMES[type];
    return name ? subscribedOrganisations(q, organisationIds, name) : new Set<string>();
  });
}
