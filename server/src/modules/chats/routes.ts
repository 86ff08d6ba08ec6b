import {
  chatCountersDto,
  chatDto,
  chatHistoryDto,
  chatListQuerySchema,
  chatMessagesQuerySchema,
  idParams,
  messageDto,
  okDto,
  page,
  whatsAppTemplateDto,
} from '@smartconnect/contracts';
import { z } from 'zod';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { userActor } from '../../lib/actor.ts';
import { presentChat, presentHistory, presentMessage } from '../conversation/presenter.ts';
import { chatProviderTemplates } from '../conversation/provider-templates.ts';
import { listChatsPage } from './list.ts';
import { countChats, getChat, listHistory, listMessages } from './service.ts';
import { operatorTyping } from './typing.ts';
import { chatListPageDto, workspaceRoutes } from './workspace-routes.ts';

const tags = ['chats'];

export const chatRoutes: ModuleRoutes = (fastify, app) => {
  workspaceRoutes(fastify, app);
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats',
      scope: 'chats:read',
      access: 'user',
      response: chatListPageDto,
      summary:
        'Chats by filter: assigned (in progress: own, or all with AUTHORITY_ALL_CHATS), waiting (own teams, or all), closed; newest activity first, pages by ?cursor= (nextCursor); filters channelId, teamId, operatorId, q; each with its unread count',
      tags,
      query: chatListQuerySchema,
    },
    async ({ auth, query }) => listChatsPage(app, auth, query.filter, query, query.limit, query.offset),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/counters',
      access: 'user',
      response: chatCountersDto,
      summary: 'In progress and Waiting counts',
      tags,
    },
    async ({ auth }) => countChats(app, auth),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/:id',
      scope: 'chats:read',
      access: 'user',
      response: chatDto,
      summary: 'One chat',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentChat(await getChat(app, auth, params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/:id/messages',
      scope: 'chats:read',
      access: 'user',
      response: page(messageDto).extend({
        nextCursor: z
          .uuid()
          .nullable()
          .describe('Pass as ?before= for the older page; null when this page holds the first message'),
      }),
      summary:
        'Messages of a chat (internal notes included): the newest page without a cursor, the page older than ?before={messageId} with one (keyset); oldest first within a page; total counts the whole chat',
      tags,
      params: idParams,
      query: chatMessagesQuerySchema,
    },
    async ({ auth, params, query }) => {
      const page = await listMessages(app, auth, params.id, query.limit, query.before ?? null);
      return { items: page.items.map(presentMessage), total: page.total, nextCursor: page.nextCursor };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/:id/history',
      scope: 'chats:read',
      access: 'user',
      response: page(chatHistoryDto),
      summary: 'History of a chat: assign, transfer, close, category, reopen, auto-close, redistribution',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      const items = (await listHistory(app, auth, params.id)).map(presentHistory);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chats/:id/provider-templates',
      access: 'user',
      response: page(whatsAppTemplateDto),
      summary:
        "Templates registered at the provider of the chat's channel (WhatsApp: the approved ones, read from Meta); empty for other types",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      const items = await chatProviderTemplates(app, auth, params.id);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/typing',
      access: 'user',
      response: okDto,
      summary:
        "The caller is writing a reply in the chat (its operator, or AUTHORITY_ALL_CHATS): a 'chat.typing' signal to who sees the chat and to the client where the channel shows typing (a site chat visitor, Telegram, Apple Messages for Business); not stored. Send it at most every 3 s while typing",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await operatorTyping(app, userActor(auth), params.id);
      return { ok: true as const };
    },
  );
};
