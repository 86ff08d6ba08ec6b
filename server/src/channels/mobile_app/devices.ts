import type { Queryable } from '../../db/index.ts';

/** Which push service a device token belongs to. */
export type PushProvider = 'fcm' | 'apns';
export type MobileDevice = { id: string; provider: PushProvider; token: string };

/** The most devices one app user keeps: registering another forgets the least recently registered. */
export const DEVICES_PER_CLIENT = 10;

/**
 * Registers an app user's device token on a mobile app channel (the SDK will call it; issue 34's next part): a token
 * already registered moves to this user and counts as registered now; a user keeps their 10 latest devices.
 */
export async function registerDevice(
  q: Queryable,
  d: {
    organisationId: string;
    channelId: string;
    clientExternalId: string;
    provider: PushProvider;
    token: string;
  },
): Promise<void> {
  await q.query(
    `insert into mobile_devices (organisation_id, channel_id, client_external_id, provider, token)
     select $1, ch.id, $3, $4, $5 from channels ch where ch.id = $2 and ch.organisation_id = $1
     on conflict (channel_id, provider, token)
       do update set client_external_id = excluded.client_external_id, updated_at = now()`,
    [d.organisationId, d.channelId, d.clientExternalId, d.provider, d.token],
  );
  await q.query(
    `delete from mobile_devices where organisation_id = $1 and channel_id = $2 and client_external_id = $3
       and id not in (select id from mobile_devices
                      where organisation_id = $1 and channel_id = $2 and client_external_id = $3
                      order by updated_at desc, id desc limit $4)`,
    [d.organisationId, d.channelId, d.clientExternalId, DEVICES_PER_CLIENT],
  );
}

/** An app user's registered devices on the channel, the latest first. */
export const devicesOf = (
  q: Queryable,
  organisationId: string,
  channelId: string,
  clientExternalId: string,
) =>
  q.query<MobileDevice>(
    `select id, provider, token from mobile_devices
     where organisation_id = $1 and channel_id = $2 and client_external_id = $3
     order by updated_at desc, id desc`,
    [organisationId, channelId, clientExternalId],
  );

/** Forgets devices whose push service said their token is dead (unregistered, not this app's). */
export async function removeDevices(q: Queryable, organisationId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await q.query('delete from mobile_devices where organisation_id = $1 and id = any($2::uuid[])', [
    organisationId,
    ids,
  ]);
}

/** The channel's name: the title of its push notifications. */
export async function channelTitle(q: Queryable, organisationId: string, channelId: string): Promise<string> {
  const rows = await q.query<{ name: string }>(
    'select name from channels where organisation_id = $1 and id = $2',
    [organisationId, channelId],
  );
  return rows[0]?.name ?? '';
}
