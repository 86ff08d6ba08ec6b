import { chatBotRefDto, page } from '@smartconnect/contracts';
import { z } from 'zod';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import * as Q from './queries.ts';

/**
 * `/bot-action/{uuid}` (§2 'Bot action (effect not shown)'): a bot's URL button is sent as this tracked link. A
 * click is recorded and redirected (302) to the button's address; anything else (an unknown or malformed id) is the
 * app's start page, so the link reveals nothing.
 */
export const botRuntimeRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/chat-bots/published',
      access: { option: 'OPTION_CHAT_BOT' },
      response: page(chatBotRefDto),
      summary:
        "The organisation's published chat bots {id, name}, by name: the targets of a transfer to a chat bot (any signed-in user; POST /api/chats/{id}/transfer {botId})",
      tags: ['chat bots'],
    },
    async ({ auth }) => {
      const items = await Q.publishedBots(app.db, auth.organisationId);
      return { items, total: items.length };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/bot-action/:uuid',
      access: 'public',
      raw: true,
      rawText: true,
      summary:
        "A chat bot's tracked link: records the click and redirects (302) to the button's URL; an unknown link redirects to /",
      tags: ['chat-bots'],
      params: z.object({ uuid: z.string().max(100) }),
    },
    async ({ params, reply }) => {
      const id = z.uuid().safeParse(params.uuid);
      const url = id.success ? await Q.clickLink(app.db, id.data, app.clock.now()) : undefined;
      return reply.redirect(url ?? '/', 302);
    },
  );
};
