import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { adapterFor } from '../../channels/registry.ts';
import type { AppContext } from '../../context.ts';
import { maybe, type Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { userActor } from '../../lib/actor.ts';
import { withEvents } from '../../realtime/emit.ts';
import { assertNotSuspended } from '../billing/suspension.ts';
import { getClient } from '../clients/service.ts';
import { enterWork } from '../presence/service.ts';
import { assign, emitChat } from './lifecycle.ts';
import { canAct, viewerOf } from './policy.ts';
import { distributeTeamQueues } from './routing-distribute.ts';
import { findTeam } from './routing-service.ts';
import { sendMessage } from './send-message.ts';

type Target = {
  contact_id: string;
  opted_out: boolean;
  channel_type: string;
  channel_active: boolean;
  team_id: string;
};

/** The client's contact on the channel, with what decides whether a dialog may start there. */
const findTarget = (q: Queryable, orgId: string, clientId: string, channelId: string) =>
  maybe<Target>(
    q,
    `select ct.id as contact_id, ct.opted_out_at is not null as opted_out, ch.type as channel_type,
            ch.status = 'active' and ch.deleted_at is null as channel_active, ch.team_id
       from contacts ct join channels ch on ch.id = ct.channel_id
      where ct.client_id = $1 and ct.channel_id = $2 and ct.organisation_id = $3`,
    [clientId, channelId, orgId],
  );

/** Whether a channel type lets an operator write first (ChannelCapabilities.startDialog). */
export const canStartDialog = (type: string) => {
  try {
    return adapterFor(type).capabilities.startDialog === true;
  } catch {
    return false;
  }
};

/**
 * Starts an outbound dialog with a known client on one of their channels whose adapter allows it: a new session in
 * the channel's team, assigned to the caller (history 'created' and 'assign'), then the caller's first message
 * through sendMessage. The client's open chat on that channel is used instead when the caller may write in it;
 * one someone else handles is chatAlreadyTakenException. Only users who receive dialogs or manage chats may; the
 * caller must see the client (profileNotFoundException otherwise), and starting puts a licensed user 'In work'.
 */
export async function createChat(
  app: AppContext,
  auth: AuthContext,
  input: { clientId: string; channelId: string; text: string },
) {
  const user = userActor(auth);
  if (!user.rights.has('AUTHORITY_CHAT_DISTRIBUTION') && !user.rights.has('AUTHORITY_ALL_CHATS'))
    throw new AppError('accessDeniedException');
  await getClient(app, auth, input.clientId);
  const orgId = user.organisationId;
  let switched: string[] | null = null;
  const chatId = await withEvents(app, async (q, emit) => {
    const tx = { q, emit, now: app.clock.now() };
    const target = await findTarget(q, orgId, input.clientId, input.channelId);
    if (!target || !canStartDialog(target.channel_type) || target.opted_out)
      throw new AppError('validationException', { channelId: M.valueIncorrect });
    if (!target.channel_active) throw new AppError('deactivatedChannelException');
    await assertNotSuspended(q, orgId);
    switched = await enterWork(tx, user);
    const viewer = await viewerOf(q, user);
    const open = await maybe<{ id: string; status: 'waiting' | 'in_progress'; operator_id: string | null }>(
      q,
      `select id, status, operator_id from chats
        where channel_id = $1 and contact_id = $2 and status <> 'closed' for no key update`,
      [input.channelId, target.contact_id],
    );
    if (open) {
      if (!canAct(viewer, { ...open, team_id: target.team_id, visible_team_ids: [] }))
        throw new AppError('chatAlreadyTakenException');
      return open.id;
    }
    const created = await maybe<{ id: string; organisation_id: string; team_id: string }>(
      q,
      `with c as (
         insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, session_no, created_at,
                            updated_at)
         values ($1, $2, $3, $4, $5, (select count(*) + 1 from chats h where h.client_id = $3), $6, $6)
         on conflict (channel_id, contact_id) where status <> 'closed' do nothing
         returning id, organisation_id, team_id, session_no, created_at
       ), h as (
         insert into chat_history (organisation_id, chat_id, kind, actor_id, to_team_id, created_at)
         select organisation_id, id, case when session_no > 1 then 'reopen' else 'created' end, $7, team_id,
                created_at
           from c
       )
       select id, organisation_id, team_id from c`,
      [orgId, input.channelId, input.clientId, target.contact_id, target.team_id, tx.now, user.userId],
    );
    // A client message opened one at this instant: the caller takes it like any other.
    if (!created) throw new AppError('chatAlreadyTakenException');
    const won = await assign(tx, { ...created, operator_id: null }, user.userId, {
      kind: 'assign',
      actorId: user.userId,
      from: ['waiting'],
      team: await findTeam(q, created.team_id),
    });
    if (!won) throw new AppError('chatAlreadyTakenException');
    await emitChat(tx, orgId, created.id, 'chat.created');
    return created.id;
  });
  if (switched) await distributeTeamQueues(app, switched);
  await sendMessage(app, user, chatId, { text: input.text, internal: false, attachments: [] });
  return chatId;
}
