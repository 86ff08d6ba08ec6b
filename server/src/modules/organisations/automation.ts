import type { Queryable } from '../../db/index.ts';

/** A module whose automation must see every client message, not only a chat's first one. */
export type AutomationSource = 'routing_rules' | 'auto_replies' | 'chat_bots' | 'mailings';

/**
 * Records whether `source` needs every inbound message of the organisation to pass the pipeline, and keeps the
 * organisation's `inbound_automation` flag (read by the ingest statement) on while any source needs it. Call it in
 * the transaction that switches the source's automation on or off; each module speaks only for itself.
 */
export async function setAutomationNeed(
  q: Queryable,
  orgId: string,
  source: AutomationSource,
  needed: boolean,
): Promise<void> {
  if (needed)
    await q.query(
      'insert into organisation_automation (organisation_id, source) values ($1, $2) on conflict do nothing',
      [orgId, source],
    );
  else
    await q.query('delete from organisation_automation where organisation_id = $1 and source = $2', [
      orgId,
      source,
    ]);
  await q.query(
    `update organisations set inbound_automation = exists (select 1 from organisation_automation where organisation_id = $1)
     where id = $1`,
    [orgId],
  );
}

/** The organisations whose `source` needs every inbound message now (for the source to look whether it still does). */
export const organisationsNeeding = async (q: Queryable, source: AutomationSource): Promise<string[]> =>
  (
    await q.query<{ organisation_id: string }>(
      'select organisation_id from organisation_automation where source = $1',
      [source],
    )
  ).map((r) => r.organisation_id);
