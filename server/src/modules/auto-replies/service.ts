import type { AutoRepliesDto, AutoRepliesInput } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { setAutomationNeed } from '../organisations/automation.ts';
import * as Q from './queries.ts';

type Saved = Required<{
  [K in keyof AutoRepliesInput]: Required<NonNullable<AutoRepliesInput[K]>>;
}>;

/** A channel's replies as the API answers them: all off, empty texts and a 2-minute wait until first saved. */
export function presentAutoReplies(channelId: string, row: Q.AutoRepliesRow | undefined): AutoRepliesDto {
  return {
    channelId,
    online: { enabled: row?.online_enabled ?? false, text: row?.online_text ?? '' },
    offline: { enabled: row?.offline_enabled ?? false, text: row?.offline_text ?? '' },
    rating: { enabled: row?.rating_enabled ?? false, text: row?.rating_text ?? '' },
    holding: {
      enabled: row?.holding_enabled ?? false,
      text: row?.holding_text ?? '',
      waitMinutes: row?.holding_wait_minutes ?? 2,
    },
  };
}

/** A channel of another organisation, deleted or unknown has no auto-replies (404 autoReplyNotFoundException). */
async function checkChannel(q: Queryable, orgId: string, channelId: string) {
  if (!(await Q.channelInOrg(q, orgId, channelId))) throw new AppError('autoReplyNotFoundException');
}

export async function getAutoReplies(app: AppContext, orgId: string, channelId: string) {
  await checkChannel(app.db, orgId, channelId);
  return presentAutoReplies(channelId, await Q.findAutoReplies(app.db, orgId, channelId));
}

/**
 * Replaces a channel's four auto-replies. While any channel of the organisation has online, offline or holding on,
 * every client message passes the pipeline (setAutomationNeed 'auto_replies'), in the same transaction.
 */
export async function saveAutoReplies(app: AppContext, orgId: string, channelId: string, input: Saved) {
  return app.db.tx(async (q) => {
    await checkChannel(q, orgId, channelId);
    const row = await Q.upsertAutoReplies(q, { orgId, channelId, ...input, now: app.clock.now() });
    await setAutomationNeed(q, orgId, 'auto_replies', await Q.anyMessageReplyOn(q, orgId));
    return presentAutoReplies(channelId, row);
  });
}

/**
 * The text the rating flow sends to ask for a dialog rating: the channel's 'dialog rating' auto-reply when it is on
 * (and the plan has OPTION_AUTO_REPLY), else null (the rating flow then uses its own text).
 */
export const ratingReplyText = (q: Queryable, orgId: string, channelId: string): Promise<string | null> =>
  Q.ratingText(q, orgId, channelId);
