import {
  CHANNEL_TYPES,
  CHAT_STATUSES,
  chatDto,
  chatListFiltersSchema,
  clientListPage,
  clientListQuerySchema,
  idParams,
  messageDto,
  page,
  queryInt,
  searchQuerySchema,
} from '@smartconnect/contracts';
import { z } from 'zod';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { listClients } from '../clients/service.ts';
import { presentMessage } from '../conversation/presenter.ts';
import { clientChatMessages, clientChats, clientFiles, lookupClients } from './client-panel.ts';
import { listChatsPage, listFilterOptions, markChatRead } from './list.ts';
import { searchClients, searchMessages } from './search.ts';

const tags = ['chats'];

export const chatListPageDto = z.object({
  items: z.array(
    chatDto.extend({
      unread: z.number().int().min(0).describe('Client messages the caller has not read (counted up to 100)'),
    }),
  ),
  total: z.number().int().min(0).describe('Chats in the list, counted up to 10,000'),
  nextCursor: z.string().nullable().describe('Pass as ?cursor= for the next page; null on the last page'),
});

const ref = z.object({ id: z.uuid(), name: z.string() });
const messageHitDto = z.object({
  id: z.uuid(),
  chatId: z.uuid(),
  direction: z.enum(['in', 'out']),
  internal: z.boolean(),
  createdAt: z.string(),
  author: ref.nullable(),
  snippet: z
    .array(z.object({ text: z.string(), match: z.boolean() }))
    .describe('The text around the match, in parts; match: true marks matched words'),
  chat: z.object({
    id: z.uuid(),
    status: z.enum(CHAT_STATUSES),
    channel: ref.extend({ type: z.enum(CHANNEL_TYPES) }),
    team: ref,
    operator: ref.nullable(),
    client: ref,
  }),
});
const clientHitDto = z.object({
  id: z.uuid(),
  name: z.string(),
  contacts: z.array(
    z.object({
      channelId: z.uuid(),
      channelName: z.string(),
      externalId: z.string(),
      username: z.string().nullable(),
    }),
  ),
  lastChat: z.object({ id: z.uuid(), status: z.enum(CHAT_STATUSES) }).nullable(),
});

const clientFileDto = z.object({
  messageId: z.uuid(),
  chatId: z.uuid(),
  direction: z.enum(['in', 'out']),
  createdAt: z.string(),
  url: z.string(),
  name: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number().int().nullable(),
});
const clientLookupDto = z.object({
  id: z.uuid(),
  name: z.string(),
  contacts: z.array(
    z.object({
      channelId: z.uuid(),
      channelName: z.string(),
      externalId: z.string(),
      username: z.string().nullable(),
      startDialog: z.boolean().describe("The channel's type lets an operator write first"),
    }),
  ),
});
const clientChatParams = z.object({ id: z.uuid('Not found'), chatId: z.uuid('Not found') });

/** The operator workspace's routes besides the chat commands: expired list, read marks. */
export const workspaceRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/expired',
      access: { option: 'OPTION_EXPIRING' },
      response: chatListPageDto,
      summary:
        "Expired chats: open chats past their channel's 'expired' threshold without an answer, as the caller may see them, newest activity first (cursor pages)",
      tags,
      query: chatListFiltersSchema.extend({ limit: queryInt(1, 500, 100) }),
    },
    async ({ auth, query }) => listChatsPage(app, auth, 'expired', query, query.limit),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/filter-options',
      access: 'user',
      response: z.object({
        channels: z.array(ref.extend({ type: z.enum(CHANNEL_TYPES) })),
        teams: z.array(ref),
        operators: z.array(ref).describe('Only for holders of AUTHORITY_ALL_CHATS; empty otherwise'),
      }),
      summary:
        "Choices of the chat list filters: the organisation's channels, the caller's teams (all with AUTHORITY_ALL_CHATS) and operators",
      tags,
    },
    async ({ auth }) => listFilterOptions(app, auth),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/read',
      access: 'user',
      response: z.object({
        chatId: z.uuid(),
        unread: z.number().int(),
        readAt: z.string().nullable().describe('The newest message read; null when the chat has none'),
      }),
      summary: 'Mark a chat read by the caller up to its newest message (its unread count becomes 0)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => markChatRead(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/search/messages',
      scope: 'chats:read',
      access: { option: 'OPTION_EXTENDED_SEARCH' },
      response: z.object({ items: z.array(messageHitDto), nextCursor: z.string().nullable() }),
      summary:
        'Extended search: messages by words (full-text, Russian and English stemming), channel, team, operator, chat status and period, in the chats the caller may see; newest first (cursor pages)',
      tags: ['search'],
      query: searchQuerySchema,
    },
    async ({ auth, query }) => searchMessages(app, auth, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/search/clients',
      scope: 'clients:read',
      access: { option: 'OPTION_EXTENDED_SEARCH' },
      response: z.object({ items: z.array(clientHitDto) }),
      summary:
        'Extended search: clients by name, channel id or handle, with a chat the caller may see (filters apply to that chat)',
      tags: ['search'],
      query: searchQuerySchema,
    },
    async ({ auth, query }) => searchClients(app, auth, query),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients',
      scope: 'clients:read',
      access: 'user',
      response: z.union([page(clientLookupDto), clientListPage]),
      summary:
        'With `q`: clients the caller may see by name, channel id or handle, with their channels (create-chat page). Otherwise the clients list (OPTION_PROFILE): `search` by a name, phone, e-mail or tag, filters, keyset pages (`nextCursor`)',
      tags: ['clients'],
      query: clientListQuerySchema,
    },
    async ({ auth, query }) => {
      if (query.q) return lookupClients(app, auth, query.q);
      const { q: _q, blocked, ...filters } = query;
      return listClients(app, auth, {
        ...filters,
        blocked: blocked === undefined ? undefined : blocked === 'true',
      });
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients/:id/chats',
      scope: 'chats:read',
      access: { option: 'OPTION_PROFILE_SESSION_HISTORY' },
      response: page(chatDto),
      summary:
        "Interaction history: the client's dialogs on every channel, newest first (read-only for the caller)",
      tags: ['clients'],
      params: idParams,
    },
    async ({ auth, params }) => clientChats(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients/:id/chats/:chatId/messages',
      scope: 'chats:read',
      access: { option: 'OPTION_PROFILE_SESSION_HISTORY' },
      response: z.object({ chat: chatDto, items: z.array(messageDto), total: z.number().int() }),
      summary:
        'A previous dialog of the client opened in place: the chat and its newest 200 messages, oldest first',
      tags: ['clients'],
      params: clientChatParams,
    },
    async ({ auth, params }) => {
      const { chat, page } = await clientChatMessages(app, auth, params.id, params.chatId);
      return { chat, items: page.items.map(presentMessage), total: page.total };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/clients/:id/files',
      scope: 'clients:read',
      access: 'user',
      response: page(clientFileDto),
      summary: "Files of the client's dialogs (theirs and operators'; not internal notes), newest first",
      tags: ['clients'],
      params: idParams,
    },
    async ({ auth, params }) => clientFiles(app, auth, params.id),
  );
};
