import { z } from 'zod';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { supportChannelId, supportVisitor } from './service.ts';

const tags = ['support'];

/** Platform support: the widget on the login page, and a signed-in user's own support chat (/admin/support). */
export const supportRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/support/channel',
      access: 'public',
      response: z.object({ channelId: z.uuid() }),
      summary: "The platform's support chat channel (the widget on the login page); 404 when there is none",
      tags,
    },
    async () => supportChannelId(app),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/support/visitor',
      access: 'user',
      response: z.object({ channelId: z.uuid(), visitorId: z.string(), token: z.string() }),
      summary:
        "The caller's identity on the support chat: the widget token of their own account (support staff see their name, e-mail and organisation)",
      tags,
    },
    async ({ auth }) => supportVisitor(app, auth.userId),
  );
};
