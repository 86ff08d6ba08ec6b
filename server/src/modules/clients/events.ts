import type { WebhookClientDto, WebhookClientMergedDto } from '@smartconnect/contracts';
import type { Queryable } from '../../db/index.ts';
import type { Tx } from '../../realtime/emit.ts';
import { emitLogOnly, logOnlyReaders, writeLogOnly } from '../../realtime/log-only.ts';
import { presentProfile } from './presenter.ts';
import * as P from './profile-queries.ts';
import type { ClientRow } from './queries.ts';

/*
 * The clients' events for the event webhooks (issue 34: client.created, client.updated, client.merged): log-only
 * events (realtime/log-only.ts), written in the transaction of the change when the organisation reads them; no
 * socket receives them, the screens read profiles themselves. Each carries the client as `GET /api/clients/{id}`
 * presents it, without comments and history (contracts WebhookClientDto), read in that transaction.
 */

type EventTx = Pick<Tx, 'q' | 'emit'>;

const present = (row: P.ProfileRow & ClientRow): WebhookClientDto => {
  const { comments: _c, history: _h, ...client } = presentProfile(row, row);
  return client;
};

/**
 * These clients (any organisation's) as their events present them, by id, read in one statement: for a caller that
 * writes the events itself among others (the ingest, each before its message's).
 */
export async function clientEventData(
  q: Queryable,
  clientIds: string[],
): Promise<Map<string, { organisationId: string; data: WebhookClientDto }>> {
  if (!clientIds.length) return new Map();
  const rows = await P.eventProfiles(q, [...new Set(clientIds)]);
  return new Map(rows.map((r) => [r.id, { organisationId: r.organisation_id, data: present(r) }]));
}

/** client.created or client.updated for each of these clients of the organisation (each once, in this order). */
export async function emitClientEvents(
  tx: EventTx,
  organisationId: string,
  type: 'client.created' | 'client.updated',
  clientIds: string[],
): Promise<void> {
  if (!clientIds.length || !(await logOnlyReaders(tx.q, type, [organisationId])).size) return;
  for (const c of (await clientEventData(tx.q, clientIds)).values())
    await writeLogOnly(tx.emit, c.organisationId, type, c.data);
}

/** client.merged: the client kept, as it is after the merge, and the ids merged into it. */
export async function emitClientMerged(
  tx: EventTx,
  organisationId: string,
  targetId: string,
  mergedIds: string[],
): Promise<void> {
  await emitLogOnly(tx, organisationId, 'client.merged', async () => {
    const [client] = (await clientEventData(tx.q, [targetId])).values();
    return { client: client.data, mergedIds } satisfies WebhookClientMergedDto;
  });
}
