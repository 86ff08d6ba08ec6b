import type { ClientFileDto, ClientLookupDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { getClient } from '../clients/service.ts';
import { canStartDialog } from '../conversation/create-chat.ts';
import { viewerOf } from '../conversation/policy.ts';
import { presentChat } from '../conversation/presenter.ts';
import { type ChatRow, findChat, selectChat, visible } from '../conversation/readers.ts';
import * as Q from './queries.ts';

/**
 * The client side panel of the chat screen (§2.6): interaction history and attached files. Whoever may see the
 * client (clients/service getClient: a chat of theirs, or AUTHORITY_ALL_CHATS) reads all of the client's dialogs on
 * every channel, read-only: an operator answering a client needs what was said before, whoever answered it then.
 */

const HISTORY_LIMIT = 100;
const FILES_LIMIT = 200;

/** The client's chats on every channel, newest first. */
export async function clientChats(app: AppContext, auth: AuthContext, clientId: string) {
  const client = await getClient(app, auth, clientId);
  const rows = await app.db.query<ChatRow>(
    `${selectChat} where c.client_id = $1 and c.organisation_id = $2
      order by c.created_at desc, c.id desc limit ${HISTORY_LIMIT}`,
    [client.id, auth.organisationId],
  );
  return { items: rows.map(presentChat), total: rows.length };
}

/** The newest messages of one of the client's chats (a previous dialog opened in place), oldest first. */
export async function clientChatMessages(
  app: AppContext,
  auth: AuthContext,
  clientId: string,
  chatId: string,
) {
  const client = await getClient(app, auth, clientId);
  const chat = await findChat(app.db, auth.organisationId, chatId);
  if (!chat || chat.client_id !== client.id) throw new AppError('chatNotFoundException');
  const page = await Q.listMessages(app.db, chat.id, 200, null);
  if (!page) throw new AppError('chatNotFoundException');
  return { chat: presentChat(chat), page };
}

/** Files of the client's dialogs (theirs and the operators'), newest first; internal notes' files left out. */
export async function clientFiles(app: AppContext, auth: AuthContext, clientId: string) {
  const client = await getClient(app, auth, clientId);
  const rows = await app.db.query<{
    message_id: string;
    chat_id: string;
    direction: 'in' | 'out';
    created_at: Date;
    a: { url: string; name?: string; contentType?: string; size?: number };
  }>(
    `select m.id as message_id, m.chat_id, m.direction, m.created_at, a.value as a
       from chats c
       join messages m on m.chat_id = c.id
       cross join lateral jsonb_array_elements(m.attachments) a
      where c.client_id = $1 and c.organisation_id = $2 and not m.internal and m.attachments <> '[]'::jsonb
      order by m.created_at desc, m.id desc
      limit ${FILES_LIMIT}`,
    [client.id, auth.organisationId],
  );
  const items: ClientFileDto[] = rows.map((r) => ({
    messageId: r.message_id,
    chatId: r.chat_id,
    direction: r.direction,
    createdAt: new Date(r.created_at).toISOString(),
    url: r.a.url,
    name: r.a.name ?? null,
    contentType: r.a.contentType ?? null,
    size: r.a.size ?? null,
  }));
  return { items, total: items.length };
}

/**
 * Clients whose name, channel id or handle contains the text (any case), as the caller may see them, with each
 * channel and whether a dialog may start there (create-chat page).
 */
export async function lookupClients(app: AppContext, auth: AuthContext, text: string) {
  const viewer = await viewerOf(app.db, auth);
  const pattern = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const rows = await app.db.query<{
    id: string;
    name: string;
    contacts: (Omit<ClientLookupDto['contacts'][number], 'startDialog'> & { channelType: string })[];
  }>(
    `select cl.id, cl.name,
            coalesce((select json_agg(json_build_object('channelId', ct.channel_id, 'channelName', ch.name,
                                                        'channelType', ch.type, 'externalId', ct.external_id,
                                                        'username', ct.username)
                                      order by ct.created_at)
                        from contacts ct join channels ch on ch.id = ct.channel_id
                       where ct.client_id = cl.id and ch.deleted_at is null and ch.status = 'active'
                         and ct.opted_out_at is null), '[]'::json) as contacts
       from clients cl
      where cl.organisation_id = $1
        and exists (select 1 from chats c where c.client_id = cl.id and ${visible})
        and (cl.name ilike $5 or exists (select 1 from contacts ct where ct.client_id = cl.id
                                           and (ct.external_id ilike $5 or ct.username ilike $5)))
      order by cl.name, cl.id limit 20`,
    [auth.organisationId, viewer.all, viewer.userId, viewer.teamIds, pattern],
  );
  const items: ClientLookupDto[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    contacts: r.contacts.map(({ channelType, ...c }) => ({ ...c, startDialog: canStartDialog(channelType) })),
  }));
  return { items, total: items.length };
}
