import type { Tx } from '../../realtime/emit.ts';
import { emitClientEvents } from './events.ts';

/**
 * A client's consent to advertising (issue 33), written by its owner (clients): a client who answered a mailing's
 * opt-out word receives no advertising mailing until they are marked as consenting again.
 */

/**
 * Marks the client opted out of advertising (the first time only), with its client.updated event; answers whether
 * this call marked it.
 */
export async function optOutOfAdvertising(tx: Tx, orgId: string, clientId: string): Promise<boolean> {
  const marked = await tx.q.query(
    `update clients set advertising_opted_out_at = $3, updated_at = $3
      where id = $2 and organisation_id = $1 and advertising_opted_out_at is null returning id`,
    [orgId, clientId, tx.now],
  );
  if (marked.length) await emitClientEvents(tx, orgId, 'client.updated', [clientId]);
  return marked.length === 1;
}
