import {
  FIELD_MESSAGES,
  okDto,
  ratingScoreSchema,
  WIDGET_LIMITS,
  widgetAfterQuery,
  widgetConfigDto,
  widgetFileDto,
  widgetHistoryDto,
  widgetMessageDto,
  widgetReadSchema,
  widgetSendSchema,
  widgetVisitorBodySchema,
  widgetVisitorDto,
} from '@smartconnect/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, type ModuleRoutes } from '../../http/route.ts';
import { onePlugPoint, pluggedOf } from '../../plug-points.ts';
import { acceptWidgetSocket, drainWidgetHub, type WidgetFrame } from './gateway.ts';
import { chatPageRoutes } from './page.ts';
import * as Q from './queries.ts';
import {
  configOf,
  history,
  introduceVisitor,
  markVisitorMessages,
  newVisitor,
  sendVisitorMessage,
  uploadVisitorFile,
  visitorOfRequest,
  widgetChannel,
} from './service.ts';

const tags = ['widget'];
const channelParams = z.object({ channelId: z.uuid('Not found') });
const fileParams = channelParams.extend({ key: z.string().regex(/^[A-Za-z0-9_-]{20,}$/, 'Not found') });

/** Hooks a module may add to what the widget is told (the ratings module: assessment on, a pending request). */
export type WidgetExtras = {
  assessment(app: AppContext, channelId: string): Promise<boolean>;
  pendingRating(
    app: AppContext,
    channelId: string,
    visitorId: string,
  ): Promise<{ uuid: string; text: string } | null>;
  rate(app: AppContext, channelId: string, visitorId: string, uuid: string, score: number): Promise<unknown>;
};
/** What the widget shows of other modules (ratings/register.ts gives the ratings'): none until given. */
export const WIDGET_EXTRAS = onePlugPoint<WidgetExtras>('siteChat.widgetExtras', {
  assessment: async () => false,
  pendingRating: async () => null,
  rate: async () => {
    throw new AppError('qualityAssessmentNotFoundException');
  },
});
const extras = () => pluggedOf(WIDGET_EXTRAS);

const tokenOf = (req: FastifyRequest) => (req.query as Record<string, unknown>)?.token;
const tokenQuery = z.object({ token: z.string().max(200).optional() });

/**
 * The widget runs on other sites: its calls are cross-origin from any origin. They are "simple" requests (no
 * cookies, no custom header: the visitor's token is the `token` query parameter, written [REDACTED] in logs; JSON is
 * sent as text/plain), so no preflight is needed; its files and photos are loaded by other pages.
 */
function crossOrigin(fastify: FastifyInstance) {
  fastify.addHook('onRequest', async (_req, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
  });
}

/** The site-chat widget's protocol: config, identity, history, send, read marks, files, and its own websocket. */
export const widgetRoutes: ModuleRoutes = (root, app) => {
  chatPageRoutes(root, app);
  // Like the staff sockets (realtime/routes.ts): on HTTP close the widgets are told to reconnect elsewhere.
  root.addHook('preClose', async () => drainWidgetHub(app));
  root.register(async (fastify) => {
    crossOrigin(fastify);
    fastify.removeAllContentTypeParsers();
    // Files stay bytes; every other body is JSON, whatever its declared type (text/plain spares a preflight).
    fastify.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WIDGET_LIMITS.fileMaxBytes + 1024 },
      (req, body: Buffer, done) => {
        if (req.url.split('?')[0].endsWith('/files')) return done(null, body);
        if (body.length > 64 * 1024)
          return done(Object.assign(new Error('too large'), { statusCode: 413 }), undefined);
        try {
          done(null, body.length ? JSON.parse(body.toString('utf8')) : undefined);
        } catch (err) {
          (err as Error & { statusCode: number }).statusCode = 400;
          done(err as Error, undefined);
        }
      },
    );
    routes(fastify, app);
  });
};

function routes(fastify: FastifyInstance, app: AppContext) {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/widget/:channelId/config',
      access: 'public',
      summary:
        "A site-chat channel's widget settings (title, welcome message, display...), read by the widget",
      response: widgetConfigDto,
      tags,
      params: channelParams,
    },
    async ({ params }) => {
      const ch = await widgetChannel(app, params.channelId);
      return configOf(ch, await extras().assessment(app, ch.id));
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/widget/:channelId/visitors',
      access: 'public',
      summary:
        'A new anonymous visitor: answers a signed token the widget keeps (an address may take 30 an hour)',
      response: widgetVisitorDto,
      tags,
      params: channelParams,
      body: widgetVisitorBodySchema,
    },
    async ({ params, req }) => newVisitor(app, await widgetChannel(app, params.channelId), req.ip),
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/widget/:channelId/messages',
      access: 'custom',
      summary: `The visitor's messages (?token= their signed token), after a time for a resume, and a pending rating request`,
      response: widgetHistoryDto,
      tags,
      params: channelParams,
      query: widgetAfterQuery.extend(tokenQuery.shape),
    },
    async ({ params, query, req }) => {
      const ch = await widgetChannel(app, params.channelId);
      const visitorId = visitorOfRequest(ch, tokenOf(req));
      return {
        items: await history(app, ch, visitorId, query.after ?? null),
        rating: await extras().pendingRating(app, ch.id, visitorId),
      };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/widget/:channelId/messages',
      access: 'custom',
      summary: `A visitor's message (?token=): limited per visitor and per address, at most ${WIDGET_LIMITS.textMax} characters`,
      response: widgetMessageDto,
      tags,
      params: channelParams,
      query: tokenQuery,
      body: widgetSendSchema.and(z.object({ name: z.string().max(64).optional() })),
    },
    async ({ params, body, req }) => {
      const ch = await widgetChannel(app, params.channelId);
      return sendVisitorMessage(app, ch, String(tokenOf(req) ?? ''), req.ip, body);
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/widget/:channelId/read',
      access: 'custom',
      summary: 'The visitor received or read our messages (their status moves forward only)',
      response: okDto,
      tags,
      params: channelParams,
      query: tokenQuery,
      body: widgetReadSchema,
    },
    async ({ params, body, req }) => {
      const ch = await widgetChannel(app, params.channelId);
      await markVisitorMessages(app, ch, String(tokenOf(req) ?? ''), body.messageIds, body.status);
      return { ok: true };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/widget/:channelId/profile',
      access: 'custom',
      summary:
        "The visitor introduces themselves (?token=): name, email, phone, all optional; shown on the chat's client. 404 profileNotFoundException before the visitor's first message",
      response: okDto,
      tags,
      params: channelParams,
      query: tokenQuery,
      body: widgetVisitorBodySchema,
    },
    async ({ params, body, req }) => {
      const ch = await widgetChannel(app, params.channelId);
      await introduceVisitor(app, ch, String(tokenOf(req) ?? ''), body);
      return { ok: true };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/widget/:channelId/files',
      access: 'custom',
      summary: `A visitor's file as the raw body (?token=, ?name=): JPEG, PNG, GIF, WebP or PDF by content, at most ${WIDGET_LIMITS.fileMaxBytes} bytes`,
      response: widgetFileDto,
      tags,
      params: channelParams,
      query: tokenQuery.extend({ name: z.string().max(255).optional() }),
      bodyLimit: WIDGET_LIMITS.fileMaxBytes + 1024,
    },
    async ({ params, req }) => {
      const ch = await widgetChannel(app, params.channelId);
      if (!Buffer.isBuffer(req.body)) throw new AppError('fileUploadException');
      const name = String((req.query as Record<string, unknown>).name ?? '').slice(0, 255);
      return uploadVisitorFile(app, ch, String(tokenOf(req) ?? ''), req.ip, req.body, name);
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/widget/:channelId/files/:key',
      access: 'public',
      raw: true,
      summary:
        "A file of the channel's organisation (attachments, operators' photos), loadable from the widget's page",
      tags,
      params: fileParams,
    },
    async ({ params, reply }) => {
      const ch = await widgetChannel(app, params.channelId);
      const meta = await Q.organisationFile(app.db, ch.organisation_id, params.key);
      const data = meta && (await app.storage.get(params.key));
      if (!meta || !data) throw new AppError('imageNotFoundException');
      const inline = /^image\/(jpeg|png|gif|webp)$/.test(meta.content_type);
      return reply
        .type(meta.content_type)
        .header('cache-control', 'private, max-age=31536000, immutable')
        .header('content-disposition', inline ? 'inline' : 'attachment')
        .header('x-content-type-options', 'nosniff')
        .send(data);
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/widget/:channelId/rating',
      access: 'custom',
      response: okDto,
      summary:
        "The visitor rates the service 1..5 from the widget's buttons (?token=): 409 once rated, 404 when not theirs",
      tags,
      params: channelParams,
      query: tokenQuery,
      body: z.object({ uuid: z.uuid(FIELD_MESSAGES.valueIncorrect), score: ratingScoreSchema }),
    },
    async ({ params, body, req }) => {
      const ch = await widgetChannel(app, params.channelId);
      await extras().rate(app, ch.id, visitorOfRequest(ch, tokenOf(req)), body.uuid, body.score);
      return { ok: true as const };
    },
  );
  definePublicRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/widget/:channelId/ws',
      access: 'custom',
      raw: true,
      rawText: true,
      summary:
        'The widget\'s websocket (?token=<visitor token>&after=<id of the last message the widget has>): the messages stored after it, then live messages, rating requests and `{type: \'typing\', name}` while an operator writes; `ping` is answered `{"type":"pong"}`, `typing` tells the chat\'s operators the visitor is writing. At most 10 open per visitor and 50 per client address (per instance): one more opens and is closed at once with code 4009',
      tags,
      params: channelParams,
      query: z.object({ token: z.string().max(200).optional(), after: widgetAfterQuery.shape.after }),
    },
    async ({ params, query, req, reply }) => upgrade(app, params.channelId, query, req, reply),
  );
}

async function upgrade(
  app: AppContext,
  channelId: string,
  query: { token?: string; after?: string },
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const ch = await widgetChannel(app, channelId);
  const visitorId = visitorOfRequest(ch, query.token);
  // Only an upgrade is served.
  if (String(req.headers.upgrade).toLowerCase() !== 'websocket')
    throw new AppError('validationException', { _: FIELD_MESSAGES.incorrectValue });
  reply.hijack();
  acceptWidgetSocket(
    app,
    ch,
    visitorId,
    query.after ?? null,
    req.raw,
    req.ip,
    async (): Promise<WidgetFrame[]> => {
      const rating = await extras().pendingRating(app, ch.id, visitorId);
      return rating ? [{ type: 'rating', rating }] : [];
    },
  );
}
