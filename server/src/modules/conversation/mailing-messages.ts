import type { Attachment } from '@smartconnect/contracts';
import type { Queryable } from '../../db/index.ts';
import { outboxRowCte } from '../../jobs/queries.ts';
import type { Tx } from './lifecycle.ts';
import { type MessageRow, messageColumns, type ProviderTemplateRef } from './message-queries.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import type { ChatRow } from './queries.ts';

/*
 * A mailing's messages in the clients' dialogs (§3 message kind 'mailing'): the conversation module writes them,
 * the mailings module decides who and when.
 */

/** One recipient's copy of a mailing's message. */
export type MailingMessageInput = {
  contactId: string;
  clientId: string;
  text: string;
  template: ProviderTemplateRef | null;
};

export type MailingMessageWritten = {
  contactId: string;
  messageId: string;
  chatId: string;
  outboxId: string;
};

type Written = MailingMessageWritten & {
  open: boolean;
  message: MessageRow;
  scope: Pick<ChatRow, 'status' | 'operator_id' | 'team_id' | 'visible_team_ids'>;
};

/**
 * Writes a chunk of a mailing's messages in ONE statement: per recipient a message of kind 'mailing' (pending), and
 * its outbox row due at `heldUntil` (the caller delivers it itself at its paced moment; should the caller die, the
 * outbox's pollers send it then). A contact with an open dialog gets the message in it (its operator sees it arrive);
 * otherwise the message is kept in a new closed chat of its own (`chats.mailing_id`): the client's history shows
 * it, the operators' lists and the reports do not (it has no 'created' history line), and a reply opens a dialog as
 * any client message does.
 */
export async function writeMailingMessages(
  tx: Tx,
  m: {
    orgId: string;
    mailingId: string;
    channelId: string;
    teamId: string;
    attachments: Attachment[];
    heldUntil: Date;
    items: MailingMessageInput[];
  },
): Promise<MailingMessageWritten[]> {
  if (!m.items.length) return [];
  const rows = await write(tx.q, m, tx.now);
  for (const r of rows)
    if (r.open) await tx.emit(m.orgId, 'message.created', presentMessage(r.message), chatAudience(r.scope));
  return rows.map(({ contactId, messageId, chatId, outboxId }) => ({
    contactId,
    messageId,
    chatId,
    outboxId,
  }));
}

const write = async (
  q: Queryable,
  m: Parameters<typeof writeMailingMessages>[1],
  now: Date,
): Promise<Written[]> => {
  const rows = await q.query<
    MessageRow & {
      contact_id: string;
      outbox_id: string;
      open: boolean;
      chat_status: ChatRow['status'];
      operator_id: string | null;
      team_id: string;
      visible_team_ids: string[];
    }
  >(
    `with i as (
       select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[]) with ordinality
         as i(contact_id, client_id, text, template, ord)
     ), oc as (
       select c.id, c.contact_id, c.status, c.operator_id, c.team_id from chats c
        where c.channel_id = $6 and c.contact_id in (select contact_id from i) and c.status <> 'closed'
        order by c.id for no key update
     ), nc as (
       insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, session_no, status, created_at,
                          updated_at, closed_at, last_message_text, last_message_at, mailing_id)
       select $5, $6, i.client_id, i.contact_id, $7, (select count(*) + 1 from chats h where h.client_id = i.client_id),
              'closed', $9, $9, $9, i.text, $9, $8
         from i where not exists (select 1 from oc where oc.contact_id = i.contact_id)
       returning id, contact_id
     ), k as (
       select i.*, coalesce(oc.id, nc.id) as chat_id, oc.id is not null as open
         from i left join oc on oc.contact_id = i.contact_id left join nc on nc.contact_id = i.contact_id
     ), m as (
       insert into messages as m (organisation_id, chat_id, channel_id, direction, kind, internal, text, attachments,
                                  status, created_at, provider_template)
       select $5, k.chat_id, $6, 'out', 'mailing', false, k.text, $10::jsonb, 'pending',
              -- After the open dialog's latest message (an inbound one may carry a later stamp than our clock).
              greatest($9::timestamptz + make_interval(secs => k.ord / 1000000.0),
                       (select l.created_at + interval '1 microsecond' from messages l
                         where l.chat_id = k.chat_id order by l.created_at desc, l.id desc limit 1)),
              k.template
         from k order by k.ord
       returning ${messageColumns}
     ), o as (
       ${outboxRowCte('m', { orgId: '$5', channelId: '$6', at: '$11', returning: true })}
     ), u as (
       update chats c set last_message_text = k.text, last_message_at = $9, updated_at = $9
         from k where c.id = k.chat_id and k.open
     )
     select m.*, k.contact_id, o.id as outbox_id, k.open, coalesce(oc.status, 'closed') as chat_status,
            oc.operator_id, coalesce(oc.team_id, $7) as team_id,
            (select ch.visible_team_ids from channels ch where ch.id = $6) as visible_team_ids
       from m join k on k.chat_id = m.chat_id join o on o.message_id = m.id
       left join oc on oc.id = k.chat_id`,
    [
      m.items.map((i) => i.contactId),
      m.items.map((i) => i.clientId),
      m.items.map((i) => i.text),
      m.items.map((i) => (i.template ? JSON.stringify(i.template) : null)),
      m.orgId,
      m.channelId,
      m.teamId,
      m.mailingId,
      now,
      JSON.stringify(m.attachments),
      m.heldUntil,
    ],
  );
  return rows.map((r) => ({
    contactId: r.contact_id,
    messageId: r.id,
    chatId: r.chat_id,
    outboxId: r.outbox_id,
    open: r.open,
    message: r,
    scope: {
      status: r.chat_status,
      operator_id: r.operator_id,
      team_id: r.team_id,
      visible_team_ids: r.visible_team_ids ?? [],
    },
  }));
};

/**
 * A client's reply to a mailing opened `chatId`: the mailing's message (kept in its own closed chat) is shown at the
 * top of the new dialog, so the operator reads what the client answers. The copy keeps the original's time, text,
 * files and delivery status; it is not delivered again (no outbox row, no provider id).
 */
export async function showMailingInReply(
  tx: Tx,
  orgId: string,
  chatId: string,
  messageId: string,
): Promise<void> {
  const [copy] = await tx.q.query<MessageRow>(
    `insert into messages as m (organisation_id, chat_id, channel_id, direction, kind, internal, text, attachments,
                                status, status_reason, created_at, provider_template)
     select o.organisation_id, $2, o.channel_id, 'out', 'mailing', false, o.text, o.attachments, o.status,
            o.status_reason, least(o.created_at, (select min(f.created_at) from messages f where f.chat_id = $2)
                                                   - interval '1 microsecond'),
            o.provider_template
       from messages o where o.id = $3 and o.organisation_id = $1 and o.kind = 'mailing'
     returning ${messageColumns}`,
    [orgId, chatId, messageId],
  );
  if (!copy) return;
  const [scope] = await tx.q.query<Pick<ChatRow, 'status' | 'operator_id' | 'team_id' | 'visible_team_ids'>>(
    `select c.status, c.operator_id, c.team_id, ch.visible_team_ids
       from chats c join channels ch on ch.id = c.channel_id where c.id = $1`,
    [chatId],
  );
  if (scope) await tx.emit(orgId, 'message.created', presentMessage(copy), chatAudience(scope));
}
