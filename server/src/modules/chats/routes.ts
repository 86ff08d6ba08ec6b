import {
  chatCategorySchema,
  chatCloseSchema,
  chatCountersDto,
  chatDto,
  chatHistoryDto,
  chatListQuerySchema,
  chatMessagesQuerySchema,
  idParams,
  FIELD_MESSAGES as M,
  messageDto,
  messageEditSchema,
  messageParams,
  messageSendSchema,
  okDto,
  page,
  templateMessageSchema,
  transferSchema,
  whatsAppTemplateDto,
} from '@smartconnect/contracts';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { userActor } from '../../lib/actor.ts';
import { closeChat } from './close-chat.ts';
import { listChatsPage } from './list.ts';
import { presentChat, presentHistory, presentMessage } from './presenter.ts';
import { chatProviderTemplates, sendProviderTemplate } from './provider-templates.ts';
import { editMessage, sendMessage } from './send-message.ts';
import { countChats, getChat, listHistory, listMessages } from './service.ts';
import { setChatCategory } from './set-category.ts';
import { takeChat, takeOverChat } from './take-chat.ts';
import { transferChat } from './transfer-chat.ts';
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
      method: 'POST',
      url: '/api/chats/:id/messages',
      access: 'user',
      response: messageDto,
      summary: 'Send a message to the client, or an internal note with internal: true',
      tags,
      params: idParams,
      body: messageSendSchema,
    },
    async ({ auth, params, body }) =>
      presentMessage(await sendMessage(app, userActor(auth), params.id, body)),
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
      url: '/api/chats/:id/template-messages',
      access: 'user',
      response: messageDto,
      summary:
        "Send one of the channel's registered templates with its variables (allowed after WhatsApp's 24-hour session ended); the chat shows the filled-in text",
      tags,
      params: idParams,
      body: templateMessageSchema,
    },
    async ({ auth, params, body }) => presentMessage(await sendProviderTemplate(app, auth, params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/chats/:id/messages/:messageId',
      access: 'user',
      response: messageDto,
      summary: 'Edit one of your own messages (kind becomes edited)',
      tags,
      params: messageParams,
      body: messageEditSchema,
    },
    async ({ auth, params, body }) =>
      presentMessage(await editMessage(app, userActor(auth), params.id, params.messageId, body.text)),
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
        "The caller is writing a reply in the chat (its operator, or AUTHORITY_ALL_CHATS): a 'chat.typing' signal to who sees the chat and to a site chat visitor; not stored. Send it at most every 3 s while typing",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await operatorTyping(app, userActor(auth), params.id);
      return { ok: true as const };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/take',
      access: 'user',
      response: chatDto,
      summary: 'Take a Waiting chat (409 chatAlreadyTakenException when someone was faster)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentChat(await takeChat(app, userActor(auth), params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/takeover',
      access: { right: 'AUTHORITY_ALL_CHATS' },
      response: chatDto,
      summary:
        "Take over a chat another operator is handling (AUTHORITY_ALL_CHATS): the caller becomes its operator, history records 'takeover' with the operator it came from; a Waiting chat is simply taken",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentChat(await takeOverChat(app, userActor(auth), params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/transfer',
      access: 'user',
      response: chatDto,
      summary:
        'Transfer to {operatorId} | {teamId} | {target: last_operator | personal_manager} | {botId} (a published chat bot, OPTION_CHAT_BOT: the bot answers from its root node; 409 chatBotNotPublishedException when it has no published version)',
      tags,
      params: idParams,
      body: transferSchema,
    },
    async ({ auth, params, body }) => presentChat(await transferChat(app, userActor(auth), params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/close',
      access: 'user',
      response: chatDto,
      summary:
        "Close a chat; optional body {categoryId} (any level available to the chat's team) sets the request category first, in the same step (with OPTION_CATEGORY a chat without a category cannot be closed: 409 closeWithoutCategoryException)",
      tags,
      params: idParams,
      body: chatCloseSchema,
    },
    async ({ auth, params, body }) => presentChat(await closeChat(app, userActor(auth), params.id, body)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/chats/:id/category',
      access: { option: 'OPTION_CATEGORY' },
      response: chatDto,
      summary:
        "Set ({categoryId}: a category, theme or subtheme available to the chat's team, else 409 sessionCategoryNotAvailableException) or remove ({categoryId: null}) the request category of a chat; without categoryId 400 sessionCategoryNotSelectedException",
      tags,
      params: idParams,
      body: chatCategorySchema,
    },
    async ({ auth, params, body }) => {
      if (body.categoryId === undefined)
        throw new AppError('sessionCategoryNotSelectedException', { categoryId: M.categoryNotSelected });
      return presentChat(await setChatCategory(app, userActor(auth), params.id, body.categoryId));
    },
  );
};
