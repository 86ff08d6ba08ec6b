import type { Queryable } from '../../db/index.ts';

/** Devino takes at most 100 ids per `/status` call (docs/providers/viber-regional.md §1a). */
export const STATUS_BATCH = 100;

/**
 * Our messages of the channel whose Devino status may still change (sent, or delivered and not yet read) and that
 * carry Devino's `providerId`, oldest first: what the status poll asks about. Messages older than `days` are left:
 * Devino's validity period is at most a day, the read mark may come later, not weeks later.
 */
export const pendingProviderIds = (q: Queryable, channelId: string, days: number, limit: number) =>
  q
    .query<{ external_message_id: string }>(
      `select external_message_id from messages
        where channel_id = $1 and direction = 'out' and status in ('sent', 'delivered')
          and external_message_id is not null and created_at > now() - make_interval(days => $2)
        order by created_at, id limit $3`,
      [channelId, days, limit],
    )
    .then((rows) => rows.map((r) => r.external_message_id).filter((id) => /^\d{1,40}$/.test(id)));
