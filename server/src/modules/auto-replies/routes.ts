import { autoRepliesDto, autoRepliesSchema, idParams } from '@smartconnect/contracts';
import type { ModuleRoutes } from '../../http/route.ts';
import { defineRoute } from '../../http/route.ts';
import { getAutoReplies, saveAutoReplies } from './service.ts';

const tags = ['channels'];
/** Editing a channel's replies is editing the channel (§6 channels: AUTHORITY_SERVICE_ACCOUNT), within the plan. */
const access = { right: 'AUTHORITY_SERVICE_ACCOUNT', option: 'OPTION_AUTO_REPLY' } as const;

export const autoReplyRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels/:id/auto-replies',
      access,
      response: autoRepliesDto,
      summary: "A channel's automatic replies (online, offline, dialog rating, holding phrase)",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => getAutoReplies(app, auth.organisationId, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PUT',
      url: '/api/channels/:id/auto-replies',
      access,
      response: autoRepliesDto,
      summary:
        "Replace a channel's automatic replies: each {enabled, text} (text required when enabled, at most 1000 characters); holding.waitMinutes 1, 2 or 5",
      tags,
      params: idParams,
      body: autoRepliesSchema,
    },
    async ({ auth, params, body }) => saveAutoReplies(app, auth.organisationId, params.id, body),
  );
};
