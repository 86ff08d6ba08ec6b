import type { ChannelProblemDto, ChannelProblemKind } from '@smartconnect/contracts';
import { type AppContext, stateSlot } from '../../context.ts';
import { withEvents } from '../../realtime/emit.ts';
import { problemMail } from './mails.ts';
import * as Q from './queries.ts';

/** Who sees a channel's problems: the holders of the channels right (§8 admin alert 'Problem detected!'). */
export const PROBLEM_AUDIENCE = { rights: ['AUTHORITY_SERVICE_ACCOUNT'] };

export const PROBLEMS = {
  /** An unreachable provider is a problem once it has failed for this long (a single timeout is not). */
  unreachableAfterMs: 10 * 60_000,
  /** At most one mail per channel and kind of problem in this time. */
  mailEveryMs: 60 * 60_000,
};

/**
 * Channels this instance resolved lately, by channel and kinds: until then a success resolves nothing again (every
 * delivered message would otherwise cost a transaction). Recording a problem here forgets the channel; a problem
 * another instance records is resolved by this one's successes once the memo runs out.
 */
const RESOLVED_MEMO_MS = 10_000;
const RESOLVED = stateSlot('channels.problems-resolved', () => new Map<string, number>());

type ProblemChannel = {
  id: string;
  organisation_id: string;
  name: string;
  notification_email: string | null;
};

/**
 * The one place a channel's problem is recorded (token refused, provider unreachable for a while, webhook sending
 * unreadable updates). Repeats while it is open change nothing but its last time. When it opens, administrators
 * are told over realtime (the banner and 'Problem detected!' title) and the channel's notification e-mail gets a
 * mail, at most one per channel and kind an hour. Never throws: a problem report must not fail the caller's work.
 */
export async function recordChannelProblem(
  app: AppContext,
  channel: ProblemChannel,
  kind: ChannelProblemKind,
  detail: string,
): Promise<void> {
  const memo = app.state.of(app, RESOLVED);
  for (const key of memo.keys()) if (key.startsWith(`${channel.id}:`)) memo.delete(key);
  try {
    const now = app.clock.now();
    const { id, opened } = await withEvents(app, async (q, emit) => {
      const r = await Q.recordProblem(q, {
        orgId: channel.organisation_id,
        channelId: channel.id,
        kind,
        detail,
        now,
        openAfterMs: kind === 'unreachable' ? PROBLEMS.unreachableAfterMs : 0,
      });
      if (r.opened)
        await emit(channel.organisation_id, 'channel.problems', { channelId: channel.id }, PROBLEM_AUDIENCE);
      return r;
    });
    app.log.warn({ channel: channel.id, kind, detail }, 'channel problem');
    if (!opened || !channel.notification_email) return;
    if (!(await Q.claimProblemMail(app.db, id, now, PROBLEMS.mailEveryMs))) return;
    await app.mailer.send(
      problemMail(await Q.orgLanguage(app.db, channel.organisation_id), channel.notification_email, {
        channelName: channel.name,
        kind,
        detail,
        link: `${app.config.publicUrl}/admin/preferences/channels/${channel.id}`,
      }),
    );
  } catch (err) {
    app.log.error({ err, channel: channel.id, kind }, 'channel problem not recorded');
  }
}

/** The channel works again for these kinds (a delivery went through, a readable webhook came): its problems end. */
export async function resolveChannelProblems(
  app: AppContext,
  channel: { id: string; organisation_id: string },
  kinds: ChannelProblemKind[],
): Promise<void> {
  const memo = app.state.of(app, RESOLVED);
  const key = `${channel.id}:${kinds.join(',')}`;
  const now = Date.now();
  if ((memo.get(key) ?? 0) > now) return;
  try {
    await withEvents(app, async (q, emit) => {
      if (await Q.resolveProblems(q, channel.id, kinds, app.clock.now()))
        await emit(channel.organisation_id, 'channel.problems', { channelId: channel.id }, PROBLEM_AUDIENCE);
    });
    if (memo.size > 10_000) memo.clear();
    memo.set(key, now + RESOLVED_MEMO_MS);
  } catch (err) {
    app.log.error({ err, channel: channel.id }, 'channel problems not resolved');
  }
}

const present = (p: Q.ProblemRow): ChannelProblemDto => ({
  id: p.id,
  channelId: p.channel_id,
  channelName: p.channel_name,
  kind: p.kind,
  detail: p.detail,
  since: new Date(p.opened_at ?? p.first_seen_at).toISOString(),
  lastSeenAt: new Date(p.last_seen_at).toISOString(),
});

/** The organisation's channels in trouble now (opened, not dismissed, not ended). */
export async function listChannelProblems(app: AppContext, orgId: string) {
  const items = (await Q.openProblems(app.db, orgId)).map(present);
  return { items, total: items.length };
}

/** An administrator hides a channel's open problems from the banner; they show again when a new one opens. */
export async function dismissChannelProblems(app: AppContext, orgId: string, channelId: string) {
  const channel = await Q.findChannel(app.db, orgId, channelId);
  if (!channel) return false;
  await withEvents(app, async (q, emit) => {
    await Q.dismissProblems(q, orgId, channelId, app.clock.now());
    await emit(orgId, 'channel.problems', { channelId }, PROBLEM_AUDIENCE);
  });
  return true;
}
