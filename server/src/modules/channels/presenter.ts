import type { ChannelDto } from '@smartconnect/contracts';
import { adapterFor } from '../../channels/registry.ts';
import type { ChannelRow } from './queries.ts';

/** The one JSON shape of a channel; secrets and the key hash never leave the server. */
export function presentChannel(c: ChannelRow): ChannelDto {
  const adapter = adapterFor(c.type);
  return {
    id: c.id,
    type: c.type,
    name: c.name,
    teamId: c.team_id,
    team: { id: c.team_id, name: c.team_name },
    status: c.status,
    settings: adapter.present(c.settings ?? {}),
    halfExpiredMinutes: c.half_expired_minutes,
    expiredMinutes: c.expired_minutes,
    notificationEmail: c.notification_email,
    visibleTeamIds: c.visible_team_ids ?? [],
    ratingBeforeEnd: c.rating_before_end,
    ratingMessage: c.rating_message,
    assessment: { enabled: c.rating_enabled, beforeEnd: c.rating_before_end, text: c.rating_message },
    inboundUrl: adapter.inboundPath?.(c.id) ?? `/api/webhooks/${c.type}/${c.id}`,
    lastInboundAt: c.last_inbound_at ? new Date(c.last_inbound_at).toISOString() : null,
    lastUnreadable: c.unreadable_at
      ? { at: new Date(c.unreadable_at).toISOString(), reason: c.unreadable_reason ?? '' }
      : null,
    createdAt: new Date(c.created_at).toISOString(),
  };
}
