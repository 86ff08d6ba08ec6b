import { PUSH_LIMITS } from '@smartconnect/contracts';
import { maybe, one, type Queryable } from '../../db/index.ts';

export type SubscriptionRow = {
  id: string;
  organisation_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: Date;
  last_success_at: Date | null;
  failures: number;
};

export type SettingsRow = { new_chats: boolean; new_messages: boolean };

/** The stored VAPID key pair (the private key sealed), when one was made. */
export const vapidKeys = (q: Queryable) =>
  maybe<{ public_key: string; private_key: string }>(
    q,
    'select public_key, private_key from push_vapid where id = 1',
  );

/** Keeps the first pair made: an instance that lost the race reads the winner's. */
export async function insertVapidKeys(q: Queryable, publicKey: string, sealedPrivate: string) {
  await q.query(
    'insert into push_vapid (id, public_key, private_key) values (1, $1, $2) on conflict (id) do nothing',
    [publicKey, sealedPrivate],
  );
}

export const listSubscriptions = (q: Queryable, orgId: string, userId: string) =>
  q.query<SubscriptionRow & { language: string }>(
    `select s.*, u.language from push_subscriptions s join users u on u.id = s.user_id
      where s.organisation_id = $1 and s.user_id = $2 order by s.created_at, s.id`,
    [orgId, userId],
  );

/**
 * Stores a browser's subscription for the user; a browser endpoint already known in the organisation (another
 * user signed in there before) becomes this user's. Keeps the user's newest PUSH_LIMITS.subscriptionsPerUser.
 */
export async function upsertSubscription(
  q: Queryable,
  s: {
    orgId: string;
    userId: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    userAgent: string | null;
  },
): Promise<SubscriptionRow> {
  const row = await one<SubscriptionRow>(
    q,
    `insert into push_subscriptions (organisation_id, user_id, endpoint, p256dh, auth, user_agent)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (organisation_id, endpoint) do update
       set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth,
           user_agent = excluded.user_agent, created_at = now(), last_success_at = null, failures = 0
     returning *`,
    [s.orgId, s.userId, s.endpoint, s.p256dh, s.auth, s.userAgent],
  );
  await q.query(
    `delete from push_subscriptions
      where organisation_id = $1 and user_id = $2
        and id not in (select id from push_subscriptions where organisation_id = $1 and user_id = $2
                        order by created_at desc, id desc limit $3)`,
    [s.orgId, s.userId, PUSH_LIMITS.subscriptionsPerUser],
  );
  return row;
}

/** Removes one of the user's own subscriptions; undefined when they have none of that id. */
export const deleteOwnSubscription = (q: Queryable, orgId: string, userId: string, id: string) =>
  maybe<SubscriptionRow>(
    q,
    'delete from push_subscriptions where organisation_id = $1 and user_id = $2 and id = $3 returning *',
    [orgId, userId, id],
  );

/** The push service said the subscription is gone (404, 410). */
export async function deleteSubscription(q: Queryable, orgId: string, id: string): Promise<void> {
  await q.query('delete from push_subscriptions where organisation_id = $1 and id = $2', [orgId, id]);
}

/**
 * Records a push's outcome: a success clears the failures, a failure counts one; a subscription that failed
 * `maxFailures` times in a row (its push service keeps refusing: keys changed, a browser gone without a 410) is removed.
 */
export async function markSent(
  q: Queryable,
  orgId: string,
  id: string,
  ok: boolean,
  maxFailures: number,
): Promise<void> {
  if (ok) {
    await q.query(
      'update push_subscriptions set last_success_at = now(), failures = 0 where organisation_id = $1 and id = $2',
      [orgId, id],
    );
    return;
  }
  const counted = await maybe<{ failures: number }>(
    q,
    'update push_subscriptions set failures = failures + 1 where organisation_id = $1 and id = $2 returning failures',
    [orgId, id],
  );
  if (counted && counted.failures >= maxFailures) await deleteSubscription(q, orgId, id);
}

/** The user's choices; both on until they say otherwise. */
export async function settings(q: Queryable, orgId: string, userId: string): Promise<SettingsRow> {
  const row = await maybe<SettingsRow>(
    q,
    'select new_chats, new_messages from push_settings where organisation_id = $1 and user_id = $2',
    [orgId, userId],
  );
  return row ?? { new_chats: true, new_messages: true };
}

export async function saveSettings(
  q: Queryable,
  orgId: string,
  userId: string,
  s: { newChats: boolean; newMessages: boolean },
): Promise<SettingsRow> {
  return one<SettingsRow>(
    q,
    `insert into push_settings (user_id, organisation_id, new_chats, new_messages) values ($1, $2, $3, $4)
     on conflict (user_id) do update
       set new_chats = excluded.new_chats, new_messages = excluded.new_messages, updated_at = now()
       where push_settings.organisation_id = excluded.organisation_id
     returning new_chats, new_messages`,
    [userId, orgId, s.newChats, s.newMessages],
  );
}

/**
 * The subscriptions to notify of something of `kind` for these users and the members of these teams: active
 * users of the organisation who want that kind pushed, each with `live`: a socket of theirs open on any instance.
 */
export const subscriptionsFor = (
  q: Queryable,
  orgId: string,
  kind: 'chats' | 'messages',
  userIds: string[],
  teamIds: string[],
) =>
  q.query<SubscriptionRow & { language: string; live: boolean }>(
    `select s.*, u.language,
            exists (select 1 from realtime_presence rp where rp.user_id = s.user_id) as live
       from push_subscriptions s
       join users u on u.id = s.user_id and u.organisation_id = s.organisation_id and u.active
       left join push_settings ps on ps.user_id = s.user_id and ps.organisation_id = s.organisation_id
      where s.organisation_id = $1
        and (s.user_id = any($3::uuid[])
             or s.user_id in (select tm.user_id from team_members tm where tm.team_id = any($4::uuid[])))
        and case when $2 = 'chats' then coalesce(ps.new_chats, true) else coalesce(ps.new_messages, true) end
      order by s.user_id, s.created_at`,
    [orgId, kind, userIds, teamIds],
  );
