import type { ChannelType } from '@smartconnect/contracts';
import { typesWith } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { seedChannel } from '../channels/service.ts';
import { addTeamMembers } from '../teams/members.ts';
import { addTeam } from '../teams/service.ts';
import { userVisitor, widgetChannel } from '../widget/service.ts';
import * as Q from './queries.ts';

/**
 * The channel types support can run on: our own visitor widget (`capabilities.visitorWidget`), where a signed-in
 * user can be given a visitor identity. The first is the type of a support channel made at first start.
 */
const supportTypes = () => typesWith('visitorWidget');

/**
 * First start: the platform organisation's widget channel (site_chat) for customers' support, answered by a team of
 * the platform's staff. Does nothing when there is no platform organisation or it already has one.
 */
export async function seedSupportChannel(app: AppContext): Promise<void> {
  const [type] = supportTypes();
  if (!type) return;
  await app.db.tx(async (q) => {
    const platform = await Q.platformWithoutSupport(q, supportTypes());
    if (!platform) return;
    const teamId = await addTeam(q, platform.id, {
      name: 'Platform support',
      description: 'Questions of customer organisations',
      distributionMethod: 'round_robin',
      dialogLimit: 20,
    });
    await addTeamMembers(q, platform.id, teamId, platform.user_ids);
    // Made as any channel of its type is (its adapter gives the visitor key), by the channels module.
    await seedChannel(app, q, {
      organisationId: platform.id,
      type: type as ChannelType,
      name: 'SmartConnect support',
      teamId,
      settings: {
        title: 'SmartConnect support',
        subtitle: 'We answer in working hours',
        welcomeMessage: 'Hello! How can we help you?',
        display: 'closed',
      },
    });
  });
}

/** The support channel's id for the login page's widget; 404 when the platform has none. */
export async function supportChannelId(app: AppContext): Promise<{ channelId: string }> {
  const ch = await Q.supportChannel(app.db, supportTypes());
  if (!ch) throw new AppError('channelNotFoundException');
  return { channelId: ch.id };
}

/** A signed-in user's identity on the support chat: one per user, named by their account and organisation. */
export async function supportVisitor(app: AppContext, userId: string) {
  const { channelId } = await supportChannelId(app);
  const ch = await widgetChannel(app, channelId);
  return { channelId, ...userVisitor(ch, userId) };
}
