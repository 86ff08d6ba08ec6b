import {
  channelCreatedDto,
  channelCreateSchema,
  channelDto,
  channelProblemDto,
  channelUpdateSchema,
  deliveryStatusSchema,
  idEntity,
  idParams,
  ingestResultDto,
  messageDto,
  page,
  webhookParams,
  webhookResultDto,
} from '@smartconnect/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawRequest } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { definePublicRoute, defineRoute } from '../../http/route.ts';
import { oauthRoutes } from './oauth.ts';
import { presentChannel } from './presenter.ts';
import { dismissChannelProblems, listChannelProblems } from './problems.ts';
import { listChannels } from './queries.ts';
import { receiveWebhook } from './receive.ts';
import {
  answerChallenge,
  createChannel,
  deleteChannel,
  getChannel,
  providerAnswer,
  updateChannel,
} from './service.ts';

const tags = ['channels'];

const manage = { right: 'AUTHORITY_SERVICE_ACCOUNT' } as const;

export const channelRoutes: ModuleRoutes = (fastify, app) => {
  oauthRoutes(fastify, app);
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels',
      scope: 'channels:read',
      access: manage,
      response: page(channelDto),
      summary: 'Channels of the organisation',
      tags,
    },
    async ({ auth }) => {
      const items = (await listChannels(app.db, auth.organisationId)).map(presentChannel);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels/:id',
      scope: 'channels:read',
      access: manage,
      response: channelDto,
      summary: 'One channel',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => presentChannel(await getChannel(app, auth.organisationId, params.id)),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/channels/problems',
      scope: 'channels:read',
      access: manage,
      response: page(channelProblemDto),
      summary:
        "Channels in trouble now ('Problem detected!'): token refused, provider unreachable for a while, webhook sending unreadable updates",
      tags,
    },
    async ({ auth }) => listChannelProblems(app, auth.organisationId),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels/:id/problems/dismiss',
      access: manage,
      response: idEntity,
      summary: "Hide a channel's open problems from the administrators' banner until a new one opens",
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      if (!(await dismissChannelProblems(app, auth.organisationId, params.id)))
        throw new AppError('channelNotFoundException');
      return { id: params.id };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels',
      scope: 'channels:write',
      access: manage,
      response: channelCreatedDto,
      summary:
        'Create a channel; the answer carries its inbound key and webhook secret, shown only this once',
      tags,
      body: channelCreateSchema,
    },
    async ({ auth, body }) => createChannel(app, auth, body),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'PATCH',
      url: '/api/channels/:id',
      scope: 'channels:write',
      access: manage,
      response: channelCreatedDto,
      summary:
        'Update a channel (name, team, webhook URL, status active|inactive, overdue thresholds); a key made anew (a rotated identity secret) is answered only this once',
      tags,
      params: idParams,
      body: channelUpdateSchema,
    },
    async ({ auth, params, body }) => {
      const { shownOnce, ...row } = await updateChannel(app, auth, params.id, body);
      return { ...presentChannel(row), ...shownOnce };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'DELETE',
      url: '/api/channels/:id',
      scope: 'channels:write',
      access: manage,
      response: idEntity,
      summary: 'Delete a channel',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => {
      await deleteChannel(app, auth, params.id);
      return { id: params.id };
    },
  );
  // Provider requests keep their exact bytes (signatures are computed over them), JSON or not.
  fastify.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
      rawBodies.set(req, body);
      // A gzip-compressed body (Apple Messages for Business compresses every request) is left to its adapter.
      if (body[0] === 0x1f && body[1] === 0x8b) return done(null, undefined);
      try {
        done(null, body.length ? JSON.parse(body.toString('utf8')) : undefined);
      } catch (err) {
        (err as Error & { statusCode: number }).statusCode = 400;
        done(err as Error, undefined);
      }
    });
    raw.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
      rawBodies.set(req, body);
      done(null, undefined);
    });
    webhookRoutes(raw, app);
  });
};

const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const rawRequest = (req: FastifyRequest, endpoint?: string): RawRequest => ({
  headers: req.headers,
  query: (req.query ?? {}) as Record<string, unknown>,
  rawBody: rawBodies.get(req) ?? Buffer.alloc(0),
  body: req.body,
  endpoint,
});

function webhookRoutes(fastify: FastifyInstance, app: AppContext) {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels/:id/inbound',
      access: 'custom',
      response: ingestResultDto,
      summary:
        'Push a customer message into an API channel (Authorization: Bearer <inboundKey>); answered 200 after commit, retries are harmless',
      tags,
      params: idParams,
    },
    async ({ params, req }) =>
      (await receiveWebhook(app, params.id, rawRequest(req, 'inbound'), 'api'))[0]?.result,
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/channels/:id/status',
      scope: 'channels:write',
      access: 'custom',
      response: messageDto,
      summary:
        'Report that one of our messages (messageId from the webhook payload) was delivered or read (Authorization: Bearer <inboundKey>); the status only moves forward',
      tags,
      params: idParams,
      body: deliveryStatusSchema,
    },
    async ({ params, req }) =>
      (await receiveWebhook(app, params.id, rawRequest(req, 'status'), 'api'))[0]?.result,
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/webhooks/:type/:channelId',
      access: 'custom',
      response: webhookResultDto,
      summary:
        "A provider's webhook for one channel (raw body, verified by the channel type's own signature or secret); answered 200 once every event in it is committed",
      tags,
      params: webhookParams,
    },
    async ({ params, req, reply }) => {
      const raw = rawRequest(req);
      const received = await receiveWebhook(app, params.channelId, raw, params.type);
      // A provider that reads our answer (Viber's welcome message on conversation_started) gets its own body.
      const answer = await providerAnswer(app, params.channelId, raw, params.type);
      if (typeof answer === 'string') return reply.type('text/plain; charset=utf-8').send(answer);
      if (answer) return reply.type('application/json').send(answer);
      return { events: received.map((r) => r.event) };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/webhooks/:type/:channelId',
      access: 'custom',
      raw: true,
      rawText: true,
      summary:
        "A provider's verification of the webhook URL, for types that have one (e.g. Meta's hub.challenge): answered with the challenge as plain text; 403 when the request does not prove the provider, 404 for types without this step",
      tags,
      params: webhookParams,
    },
    async ({ params, req, reply }) => {
      const answer = await answerChallenge(app, params.channelId, rawRequest(req), params.type);
      return reply.type('text/plain; charset=utf-8').send(answer);
    },
  );
}
