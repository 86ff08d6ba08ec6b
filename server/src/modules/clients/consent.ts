import type { Queryable } from '../../db/index.ts';

/**
 * A client's consent to advertising (issue 33), written by its owner (clients): a client who answered a mailing's
 * opt-out word receives no advertising mailing until they are marked as consenting again.
 */

/** Marks the client opted out of advertising (the first time only); answers whether this call marked it. */
export const optOutOfAdvertising = async (q: Queryable, orgId: string, clientId: string, now: Date) =>
  (
    await q.query(
      `update clients set advertising_opted_out_at = $3, updated_at = $3
        where id = $2 and organisation_id = $1 and advertising_opted_out_at is null returning id`,
      [orgId, clientId, now],
    )
  ).length === 1;
