import type { ErrorCode, PlanOption, Right } from '@smartconnect/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { type AuthContext, authenticate } from './auth.ts';
import { AppError, validationError } from './errors.ts';

/**
 * Who may call a route. Every route declares one (a test walks them all):
 * - `public`: no token;
 * - `user`: any signed-in user, the handler then scopes to the user's own data;
 * - `{ right }`: a signed-in user holding that §6 right (and `option`, when the plan must include it).
 * - `custom`: the route authenticates itself (channel keys, provider signatures).
 */
export type Access =
  | 'public'
  | 'user'
  | 'custom'
  | { right: Right; option?: PlanOption }
  | { option: PlanOption };

type Schema = z.ZodType;
type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteSpec<B, Q, P> = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  summary: string;
  tags: string[];
  body?: B;
  query?: Q;
  params?: P;
  /** Raw responses (files, redirects) skip the {code, entity, error} envelope. */
  raw?: boolean;
  /** Named response schema for the OpenAPI description. */
  response?: Schema;
  bodyLimit?: number;
  /** The error for a body over the limit (default payloadTooLargeException); picture uploads say pictureTooBigException. */
  tooLarge?: ErrorCode;
};

export type Handler<B, Q, P, A> = (ctx: {
  req: FastifyRequest;
  reply: FastifyReply;
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
  auth: A;
  app: AppContext;
}) => Promise<unknown>;

/** What a module exports to register its routes; modules/index.ts lists them. */
export type ModuleRoutes = (fastify: FastifyInstance, app: AppContext) => void | Promise<void>;

export type RegisteredRoute = RouteSpec<Schema, Schema, Schema>;
export const routeRegistry: RegisteredRoute[] = [];

function parse<S>(schema: S | undefined, value: unknown, where: 'params' | 'query' | 'body'): Infer<S> {
  if (!schema) return undefined as Infer<S>;
  const res = (schema as unknown as z.ZodType).safeParse(value ?? {});
  // A path that names no object that could exist (a malformed id) is not found, like an id of another organisation.
  if (!res.success) throw where === 'params' ? new AppError('notFoundException') : validationError(res.error);
  return res.data as Infer<S>;
}

type UserAccess = Exclude<Access, 'public' | 'custom'>;

/** Registers one signed-in route with the request path of CONVENTIONS.md: authenticate, check right, validate, run, present. */
export function defineRoute<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(
  fastify: FastifyInstance,
  app: AppContext,
  spec: RouteSpec<B, Q, P> & { access: UserAccess },
  handler: Handler<B, Q, P, AuthContext>,
): void {
  register(fastify, app, spec, handler as Handler<B, Q, P, AuthContext | null>);
}

/** Registers a route without a user token: public pages, or routes that check their own credentials. */
export function definePublicRoute<
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(
  fastify: FastifyInstance,
  app: AppContext,
  spec: RouteSpec<B, Q, P> & { access: 'public' | 'custom' },
  handler: Handler<B, Q, P, null>,
): void {
  register(fastify, app, spec, handler as Handler<B, Q, P, AuthContext | null>);
}

function register<B, Q, P>(
  fastify: FastifyInstance,
  app: AppContext,
  spec: RouteSpec<B, Q, P>,
  handler: Handler<B, Q, P, AuthContext | null>,
): void {
  // One registry per process: several servers in one test process register the same routes once.
  if (!routeRegistry.some((r) => r.method === spec.method && r.url === spec.url)) {
    routeRegistry.push(spec as unknown as RegisteredRoute);
  }
  fastify.route({
    method: spec.method,
    url: spec.url,
    bodyLimit: spec.bodyLimit,
    config: { tooLarge: spec.tooLarge },
    handler: async (req, reply) => {
      let auth: AuthContext | null = null;
      if (spec.access !== 'public' && spec.access !== 'custom') {
        auth = await authenticate(app, req);
        if (typeof spec.access === 'object') {
          if ('right' in spec.access && !auth.rights.has(spec.access.right))
            throw new AppError('accessDeniedException');
          if (spec.access.option && !auth.options.has(spec.access.option))
            throw new AppError('optionUnavailableException', undefined, { option: spec.access.option });
        }
      }
      const params = parse(spec.params, req.params, 'params');
      const query = parse(spec.query, req.query, 'query');
      const body = parse(spec.body, req.body, 'body');
      const result = await handler({ req, reply, body, query, params, auth, app });
      if (spec.raw) return result;
      return { code: 'ok', entity: result ?? null, error: null };
    },
  });
}
