import type {
  PushSettings,
  PushStateDto,
  PushSubscribeBody,
  PushSubscriptionDto,
  PushTestDto,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import * as Q from './queries.ts';
import { sendPush } from './send.ts';
import { vapidKeys } from './vapid.ts';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export const presentSubscription = (s: Q.SubscriptionRow): PushSubscriptionDto => ({
  id: s.id,
  endpoint: s.endpoint,
  userAgent: s.user_agent,
  createdAt: new Date(s.created_at).toISOString(),
  lastSuccessAt: iso(s.last_success_at),
});

export async function publicKey(app: AppContext): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(app)).publicKey };
}

/** The user's choices and their subscribed browsers. */
export async function pushState(app: AppContext, auth: AuthContext): Promise<PushStateDto> {
  const [s, subs] = await Promise.all([
    Q.settings(app.db, auth.organisationId, auth.userId),
    Q.listSubscriptions(app.db, auth.organisationId, auth.userId),
  ]);
  return { newChats: s.new_chats, newMessages: s.new_messages, subscriptions: subs.map(presentSubscription) };
}

export async function saveSettings(app: AppContext, auth: AuthContext, body: PushSettings) {
  await Q.saveSettings(app.db, auth.organisationId, auth.userId, body);
  return pushState(app, auth);
}

/** Subscribes this browser for the user (a browser known already is theirs now). */
export async function subscribe(
  app: AppContext,
  auth: AuthContext,
  body: PushSubscribeBody,
  userAgent: string | undefined,
): Promise<PushSubscriptionDto> {
  const row = await app.db.tx((q) =>
    Q.upsertSubscription(q, {
      orgId: auth.organisationId,
      userId: auth.userId,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      userAgent: userAgent?.slice(0, 512) ?? null,
    }),
  );
  return presentSubscription(row);
}

/** Removes one of the user's own subscriptions; another's, or an unknown one, is not found. */
export async function unsubscribe(
  app: AppContext,
  auth: AuthContext,
  id: string,
): Promise<PushSubscriptionDto> {
  const row = await Q.deleteOwnSubscription(app.db, auth.organisationId, auth.userId, id);
  if (!row) throw new AppError('notFoundException');
  return presentSubscription(row);
}

const TEST_TEXTS = {
  eng: { title: 'SmartConnect', body: 'Push notifications work in this browser' },
  rus: { title: 'SmartConnect', body: 'Push-уведомления работают в этом браузере' },
} as const;

/**
 * Sends a test notification to every browser of the user, now: §8 'push subscription missing' when they have none,
 * 'push send failure' when no push service took it.
 */
export async function sendTest(app: AppContext, auth: AuthContext): Promise<PushTestDto> {
  const subs = await Q.listSubscriptions(app.db, auth.organisationId, auth.userId);
  if (!subs.length) throw new AppError('pushSubscriptionMissingException');
  const texts = subs[0].language === 'rus' ? TEST_TEXTS.rus : TEST_TEXTS.eng;
  // At most PUSH_LIMITS.subscriptionsPerUser requests, at once: the answer waits for the slowest, not their sum.
  const outcomes = await Promise.all(
    subs.map((sub) => sendPush(app, sub, { ...texts, url: '/admin/profile/notifications', tag: 'test' })),
  );
  const sent = outcomes.filter((o) => o === 'sent').length;
  if (!sent) throw new AppError('pushSendFailureException');
  return { sent };
}
