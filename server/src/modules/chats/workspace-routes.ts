import {
  CHANNEL_TYPES,
  CHAT_STATUSES,
  chatDto,
  chatListFiltersSchema,
  idParams,
  queryInt,
  searchQuerySchema,
} from '@smartconnect/contracts';
import { z } from 'zod';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { listChatsPage, markChatRead } from './list.ts';
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
      access: { option: 'OPTION_EXTENDED_SEARCH' },
      response: z.object({ items: z.array(clientHitDto) }),
      summary:
        'Extended search: clients by name, channel id or handle, with a chat the caller may see (filters apply to that chat)',
      tags: ['search'],
      query: searchQuerySchema,
    },
    async ({ auth, query }) => searchClients(app, auth, query),
  );
};
