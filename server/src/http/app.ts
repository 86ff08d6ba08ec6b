import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { type ErrorCode, FIELD_MESSAGES } from '@smartconnect/contracts';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { AppContext } from '../context.ts';
import { modules } from '../modules/index.ts';
import { realtimeRoutes } from '../realtime/routes.ts';
import { AppError } from './errors.ts';
import { loggerOptions } from './logging.ts';
import { observeHttp, requestId } from './observe.ts';
import { registerOpenApi } from './openapi.ts';

const webDist = resolve(dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
/** The site-chat widget's bundle (widget/, `npm run build -w widget`), served at /widget.js for any site to embed. */
const widgetBundle = resolve(dirname(fileURLToPath(import.meta.url)), '../../../widget/dist/widget.js');

/**
 * Security headers on every answer (ARCHITECTURE.md "Identity and security"): a CSP without inline script for the
 * app and its pages, which may not be framed; nosniff; the referrer policy. Mantine injects its styles at run
 * time, hence inline styles are allowed. Pages that must be embedded (the site widget) set their own policy.
 */
export const SECURITY_HEADERS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
  // Answers of this origin that other sites embed (the widget script) will say so themselves.
  crossOriginEmbedderPolicy: false,
  // Sent by our own hook, over HTTPS only (HSTS_HEADER).
  strictTransportSecurity: false,
};

/**
 * HSTS, only on an answer to a request that came over HTTPS: on plain HTTP the header means nothing (RFC 6797 §7.2)
 * and claims a transport the installation does not have. Behind a proxy (TRUST_PROXY) its X-Forwarded-Proto says.
 */
export const HSTS_HEADER = 'max-age=15552000; includeSubDomains';

/** The security headers with the CSP's connect-src opened to an external telemetry collector (TELEMETRY_URL). */
export function securityHeaders(config: Pick<AppContext['config'], 'telemetry'>) {
  const { telemetry } = config;
  if (!telemetry.enabled || !telemetry.url) return SECURITY_HEADERS;
  const directives = SECURITY_HEADERS.contentSecurityPolicy.directives;
  return {
    ...SECURITY_HEADERS,
    contentSecurityPolicy: {
      ...SECURITY_HEADERS.contentSecurityPolicy,
      directives: { ...directives, connectSrc: [...directives.connectSrc, new URL(telemetry.url).origin] },
    },
  };
}

/** Builds the HTTP server: error mapping, every module's routes, OpenAPI and the web app. */
export async function buildHttp(app: AppContext, fastify: FastifyInstance): Promise<FastifyInstance> {
  observeHttp(fastify, app);
  fastify.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    if (err instanceof AppError) {
      const wait = err.details?.retryAfterSeconds;
      if (typeof wait === 'number') reply.header('retry-after', String(wait));
      return reply.status(err.status).send(err.body());
    }
    if (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.statusCode === 413) {
      const config = req.routeOptions?.config as { tooLarge?: ErrorCode } | undefined;
      return reply.status(413).send(new AppError(config?.tooLarge ?? 'payloadTooLargeException').body());
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type and the like: the client's mistake, said as a validation error
      // with the spec's message (the parser's English is not one).
      return reply
        .status(400)
        .send(new AppError('validationException', { _: FIELD_MESSAGES.incorrectValue }).body());
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(new AppError('unknownException').body());
  });
  fastify.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET' || !existsSync(join(webDist, 'index.html'))) {
      return reply.status(404).send(new AppError('notFoundException').body());
    }
    // Client-side routes of the single-page app: the app decides what is not found.
    return reply.type('text/html').sendFile('index.html', webDist, { maxAge: 0 });
  });

  await fastify.register(helmet, { global: true, ...securityHeaders(app.config) });
  fastify.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS_HEADER);
  });
  await fastify.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 1 } });
  for (const register of modules) await register(fastify, app);
  await realtimeRoutes(fastify, app, { offlineGraceMs: app.config.presenceOfflineGraceMs });
  registerOpenApi(fastify);
  // The public landing page (§2.2): its own light page of the web build, not the app (issue 19).
  fastify.get('/landing', async (_req, reply) => {
    if (!existsSync(join(webDist, 'landing.html'))) {
      return reply.status(404).send(new AppError('notFoundException').body());
    }
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('landing.html', webDist);
  });
  fastify.get('/widget.js', async (_req, reply) => {
    if (!existsSync(widgetBundle)) return reply.status(404).send(new AppError('notFoundException').body());
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*')
      .send(await readFile(widgetBundle));
  });

  if (existsSync(webDist)) {
    await fastify.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      // web/scripts/precompress.mjs writes .br and .gz beside each bundle: sent when the browser accepts them.
      preCompressed: true,
      // Our own cache-control below (send's default would replace it).
      cacheControl: false,
      setHeaders(res, path) {
        const immutable = path.includes(`${join(webDist, 'assets')}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }
  return fastify;
}

/** Every route fastify knows, as registered; a test checks each is declared with its access. */
export const collectedRoutes = new WeakMap<FastifyInstance, { method: string; url: string }[]>();

/** `trustProxy`: whether X-Forwarded-For names the client (only behind a proxy that sets it; rate limits key on it). */
export function createFastify(
  logLevel: string,
  trustProxy: boolean | string = false,
  logStream?: NodeJS.WritableStream,
): FastifyInstance {
  const fastify = Fastify({
    logger: loggerOptions(logLevel, logStream),
    trustProxy,
    genReqId: requestId,
    bodyLimit: 1024 * 1024,
    // A path the router cannot decode (%ED%A0%80, %FF) or with a parameter over its length names nothing that
    // exists: not found, in the envelope, as route.ts answers a malformed id.
    frameworkErrors: (_err, _req, reply: FastifyReply) =>
      reply.status(404).send(new AppError('notFoundException').body()),
  });
  const routes: { method: string; url: string }[] = [];
  collectedRoutes.set(fastify, routes);
  fastify.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url });
  });
  return fastify;
}
