import type { Presence, PresenceDto, PresenceReason } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { deleteTimers, upsertTimer } from '../../jobs/queries.ts';
import { withEvents } from '../../realtime/emit.ts';
import { distributeWaiting, type Tx } from '../conversation/lifecycle.ts';
import { setPresenceRow } from '../users/account.ts';
import * as Q from './queries.ts';

type UserRef = { organisationId: string; userId: string };

const audienceOf = (u: Q.PresenceUser) => ({
  userIds: [u.id],
  teamIds: u.team_ids,
  rights: ['AUTHORITY_ALL_CHATS'],
});

/** When the auto-break timer of a user should fire: their break timeout after their last sign of life. */
function breakDue(u: Q.PresenceUser, now: Date): Date | null {
  if (!u.break_timeout_minutes) return null;
  const times = [u.last_activity_at, u.presence_changed_at]
    .filter((d): d is Date => !!d)
    .map((d) => new Date(d).getTime());
  const last = times.length ? Math.max(...times) : now.getTime();
  return new Date(last + u.break_timeout_minutes * 60_000);
}

/**
 * Changes a user's presence inside a transaction. Going online checks the licence limit (only holders of
 * AUTHORITY_CHAT_DISTRIBUTION count), arms the auto-break timer and hands their teams' Waiting chats out.
 * Break and offline keep the user's open chats where they are.
 */
export async function applyPresence(
  tx: Tx,
  ref: UserRef,
  status: Presence,
  reason: PresenceReason,
  opts: { distribute?: boolean } = {},
): Promise<PresenceDto> {
  const user = await Q.lockUser(tx.q, ref.organisationId, ref.userId);
  if (!user) throw new AppError('accountNotFoundException');
  const dto: PresenceDto = { userId: user.id, status, reason, changedAt: tx.now.toISOString() };
  if (user.presence === status) return { ...dto, status: user.presence };
  if (status === 'online' && user.is_operator) {
    const use = await Q.licenceUse(tx.q, ref.organisationId, user.id);
    if (use.online >= use.licences) throw new AppError('allLicencesTakenException');
  }
  await setPresenceRow(tx.q, user.id, status, tx.now);
  // The durable log the reports fold online and break time from (reports/rollup.ts).
  await Q.logPresence(
    tx.q,
    ref.organisationId,
    user.id,
    status,
    user.presence,
    user.presence_changed_at,
    tx.now,
  );
  await tx.emit(ref.organisationId, 'presence.changed', dto, audienceOf(user));
  if (status === 'online') {
    const due = breakDue({ ...user, presence_changed_at: tx.now }, tx.now);
    if (due) await upsertTimer(tx.q, ref.organisationId, 'auto_break', user.id, due);
    // Teams are locked in their fixed order: two operators sharing teams lock them the same way round.
    if (user.is_operator && opts.distribute !== false) await distributeWaiting(tx, user.team_ids);
  } else await deleteTimers(tx.q, user.id, ['auto_break']);
  return dto;
}

/**
 * Taking or answering a chat is work: a user counted against the licences (AUTHORITY_CHAT_DISTRIBUTION) who is not
 * 'In work' is switched to it here, which takes a licence or is refused with allLicencesTakenException, so the
 * licence limit cannot be bypassed. Call first in the command's transaction, before any chat is locked (the same
 * lock order as the toggle: user, organisation, then chats). Answers whether the user was switched: the caller
 * then hands their teams' queues out after the commit (distributeTeamQueues).
 */
export async function enterWork(
  tx: Tx,
  ref: UserRef & { rights: ReadonlySet<string> },
): Promise<string[] | null> {
  if (!ref.rights.has('AUTHORITY_CHAT_DISTRIBUTION')) return null;
  if ((await Q.presenceOf(tx.q, ref.userId)) === 'online') return null;
  await applyPresence(tx, ref, 'online', 'manual', { distribute: false });
  return Q.teamIdsOf(tx.q, ref.userId);
}

/** Sets a user's presence in its own transaction (the toggle, auto-break, and the gateway's disconnect). */
export async function changePresence(
  app: AppContext,
  user: UserRef,
  status: Presence,
  reason: PresenceReason,
): Promise<PresenceDto> {
  return withEvents(app, (q, emit) => applyPresence({ q, emit, now: app.clock.now() }, user, status, reason));
}

/** The seam the realtime gateway calls ('disconnect' after the grace period); emits presence.changed. */
export async function setPresence(
  app: AppContext,
  user: { organisationId: string; userId: string },
  status: Presence,
  reason: 'manual' | 'auto_break' | 'disconnect',
): Promise<void> {
  await changePresence(app, user, status, reason);
}

/** The lock the auto-break timer takes before anything else: the user's row, as a presence change does. */
export const lockTimerUser = (q: Queryable, orgId: string, userId: string) => Q.lockUser(q, orgId, userId);

/** Auto-break timer: an online user idle for their break timeout goes to Break; activity since moves the timer. */
export async function fireAutoBreak(tx: Tx, orgId: string, userId: string): Promise<void> {
  const user = await Q.lockUser(tx.q, orgId, userId);
  if (user?.presence !== 'online') return;
  const due = breakDue(user, tx.now);
  if (!due) return;
  if (due > tx.now) return void (await upsertTimer(tx.q, orgId, 'auto_break', user.id, due));
  await applyPresence(tx, { organisationId: orgId, userId }, 'break', 'auto_break');
}
