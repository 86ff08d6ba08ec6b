import {
  chatBotCreateSchema,
  chatBotDto,
  chatBotSummaryDto,
  chatBotUpdateSchema,
  idEntity,
  idParams,
  page,
} from '@smartconnect/contracts';
import { defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { createBot, deleteBot, getBot, listBots, publishBot, updateBot } from './service.ts';

const tags = ['chat bots'];
/** §6: chat-bots and the chat-bot item need AUTHORITY_SERVICE_ACCOUNT; the plan needs OPTION_CHAT_BOT. */
const manage = { right: 'AUTHORITY_SERVICE_ACCOUNT', option: 'OPTION_CHAT_BOT' } as const;

export const chatBotRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chat-bots',
      access: manage,
      response: page(chatBotSummaryDto),
      summary: "The organisation's chat bots, by name",
      tags,
    },
    async ({ auth }) => {
      const items = await listBots(app, auth);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chat-bots',
      access: manage,
      response: chatBotDto,
      summary: 'Create a chat bot {name, description, defaultMessage}; its draft starts with one root node',
      tags,
      body: chatBotCreateSchema,
    },
    async ({ auth, body }) => createBot(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chat-bots/:id',
      access: manage,
      response: chatBotDto,
      summary: 'A chat bot with its draft and its published graph',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => getBot(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/chat-bots/:id',
      access: manage,
      response: chatBotDto,
      summary:
        "The editor's autosave: name, description, default message, the draft graph (may be unfinished)",
      tags,
      params: idParams,
      body: chatBotUpdateSchema,
    },
    async ({ auth, params, body }) => updateBot(app, auth, params.id, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/chat-bots/:id/publish',
      access: manage,
      response: chatBotDto,
      summary:
        'Publish the draft as the next version; 400 chatBotStructureException with details.issues when its structure is wrong (§8)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => publishBot(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/chat-bots/:id',
      access: manage,
      response: idEntity,
      summary:
        'Delete a chat bot; 409 chatBotUsedByRulesException with details.rules while routing rules use it',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteBot(app, auth, params.id);
      return { id: params.id };
    },
  );
};
