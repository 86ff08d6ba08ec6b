import {
  chatCategorySchema,
  chatCloseSchema,
  chatDto,
  createChatSchema,
  idParams,
  FIELD_MESSAGES as M,
  messageDto,
  messageEditSchema,
  messageParams,
  messageSendSchema,
  templateMessageSchema,
  transferSchema,
} from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { userActor } from '../../lib/actor.ts';
import { getChat } from '../chats/service.ts';
import { closeChat } from './close-chat.ts';
import { createChat } from './create-chat.ts';
import { presentChat, presentMessage } from './presenter.ts';
import { sendProviderTemplate } from './provider-templates.ts';
import { editMessage, sendMessage } from './send-message.ts';
import { setChatCategory } from './set-category.ts';
import { takeChat, takeOverChat } from './take-chat.ts';
import { transferChat } from './transfer-chat.ts';

const tags = ['chats'];

/**
 * The chat commands over HTTP: send, edit, take, transfer, close, categorise, start a dialog. The reads of the same
 * chats are registered by chats/routes.ts.
 */
export const conversationRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats/:id/messages',
      scope: 'chats:write',
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
      method: 'POST',
      url: '/api/chats/:id/template-messages',
      scope: 'chats:write',
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
      scope: 'chats:write',
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
      scope: 'chats:write',
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
      scope: 'chats:write',
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
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chats',
      scope: 'chats:write',
      access: 'user',
      response: chatDto,
      summary:
        "Start a dialog with a known client on one of their channels whose type allows it (ChannelCapabilities.startDialog): a new chat assigned to the caller with their first message (the client's open chat there when the caller may write in it; 409 chatAlreadyTakenException when someone else handles it)",
      tags,
      body: createChatSchema,
    },
    async ({ auth, body }) => presentChat(await getChat(app, auth, await createChat(app, auth, body))),
  );
};
