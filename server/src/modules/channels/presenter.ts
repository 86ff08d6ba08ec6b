import type { ChannelDto } from '@smartconnect/contracts';
import type { ChannelRow } from './queries.ts';

/** The one JSON shape of a channel; secrets and the key hash never leave the server. */
export const presentChannel = (c: ChannelRow): ChannelDto => ({
  id: c.id,
  type: c.type,
  name: c.name,
  teamId: c.team_id,
  team: { id: c.team_id, name: c.team_name },
  status: c.status,
  webhookUrl: c.webhook_url,
  halfExpiredMinutes: c.half_expired_minutes,
  expiredMinutes: c.expired_minutes,
  inboundUrl: `/api/channels/${c.id}/inbound`,
  createdAt: new Date(c.created_at).toISOString(),
});
