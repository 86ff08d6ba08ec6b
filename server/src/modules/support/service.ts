import { userVisitor, widgetChannel } from '../../channels/site_chat/service.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { encryptSecret, randomToken } from '../../lib/crypto.ts';
import { addTeam } from '../teams/service.ts';
import * as Q from './queries.ts';

/**
 * First start: the platform organisation's site_chat channel for customers' support, answered by a team of the
 * platform's staff. Does nothing when there is no platform organisation or it already has one.
 */
export async function seedSupportChannel(app: AppContext): Promise<void> {
  await app.db.tx(async (q) => {
    const platform = await Q.platformWithoutSupport(q);
    if (!platform) return;
    const teamId = await addTeam(q, platform.id, {
      name: 'Platform support',
      description: 'Questions of customer organisations',
      distributionMethod: 'round_robin',
      dialogLimit: 20,
    });
    await Q.addMembers(q, platform.id, teamId, platform.user_ids);
    await Q.insertSupportChannel(q, {
      organisationId: platform.id,
      teamId,
      settings: {
        title: 'SmartConnect support',
        subtitle: 'We answer in working hours',
        welcomeMessage: 'Hello! How can we help you?',
        display: 'closed',
      },
      secrets: encryptSecret(app.config.secretKey, JSON.stringify({ visitorKey: randomToken() })),
    });
  });
}

/** The support channel's id for the login page's widget; 404 when the platform has none. */
export async function supportChannelId(app: AppContext): Promise<{ channelId: string }> {
  const ch = await Q.supportChannel(app.db);
  if (!ch) throw new AppError('channelNotFoundException');
  return { channelId: ch.id };
}

/** A signed-in user's identity on the support chat: one per user, named by their account and organisation. */
export async function supportVisitor(app: AppContext, userId: string) {
  const { channelId } = await supportChannelId(app);
  const ch = await widgetChannel(app, channelId);
  return { channelId, ...userVisitor(ch, userId) };
}
