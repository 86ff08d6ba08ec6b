import {
  type ApiScope,
  type ErrorCode,
  FIELD_MESSAGES,
  OPTION_REFUSALS,
  type PlanOption,
  type Right,
  unstorableStrings,
} from '@smartconnect/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { reserve } from '../lib/rate-limit.ts';
import { type AuthContext, authenticate } from './auth.ts';
import { AppError, fieldErrors } from './errors.ts';

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
  /**
   * The API key scope that reaches this route (issue 34): a request made with an organisation API key is allowed
   * here only when the key holds it (instead of the right of `access`, which a key holds for the whole
   * organisation); a route without one refuses keys.
   */
  scope?: ApiScope;
  summary: string;
  tags: string[];
  body?: B;
  query?: Q;
  params?: P;
  /** Raw responses (files, redirects) skip the {code, entity, error} envelope. */
  raw?: boolean;
  /** A raw answer that is plain text (a provider's webhook verification), described so in the OpenAPI. */
  rawText?: boolean;
  /** A raw answer that is a downloaded file: its content types, described so in the OpenAPI. */
  rawFile?: string[];
  /** Named response schema for the OpenAPI description. */
  response?: Schema;
  bodyLimit?: number;
  /** The error for a body over the limit (default payloadTooLargeException); picture uploads say pictureTooBigException. */
  tooLarge?: ErrorCode;
  /**
   * Field messages that are §8 codes of their own on this route: a body refused with one of them answers that code
   * (with the same `fields`) instead of validationException (e.g. a category name too long).
   */
  fieldCodes?: Partial<Record<string, ErrorCode>>;
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

/**
 * Validates one part of a request. Besides the schema, every string that reaches the handler must be storable
 * (contracts/text.ts: no NUL, no lone surrogate), whatever the schema says, so no route can pass one to the
 * database and fail with a 500. Such a string is a field error with the message the field gives for a wrong value.
 */
function parse<S>(schema: S | undefined, value: unknown, where: 'params' | 'query' | 'body'): Infer<S> {
  if (!schema) return undefined as Infer<S>;
  const input = value ?? {};
  const res = (schema as unknown as z.ZodType).safeParse(input);
  // A path that names no object that could exist (a malformed id) is not found, like an id of another organisation.
  if (where === 'params') {
    if (!res.success || unstorableStrings(res.data, 1).length) throw new AppError('notFoundException');
    return res.data as Infer<S>;
  }
  // On success, what the handler would get; on failure, what was sent (fields the schema drops find no message).
  const bad = unstorableStrings(res.success ? res.data : input);
  if (res.success && !bad.length) return res.data as Infer<S>;
  const fields = res.success ? {} : fieldErrors(res.error);
  for (const path of bad) {
    const key = path.length ? path.join('.') : '_';
    if (fields[key]) continue;
    const message = wrongValueMessage(schema as unknown as z.ZodType, input, path);
    if (message || res.success) fields[key] = message ?? FIELD_MESSAGES.incorrectValue;
  }
  throw new AppError('validationException', fields);
}

let overLong: string | undefined;
/**
 * The message a field gives for a value it refuses, found by asking the schema about an over-long string in the
 * field's place (every text field of the contracts has a maximum with its §5 message); undefined when the field
 * takes any string, or is not a field of the schema.
 */
function wrongValueMessage(schema: z.ZodType, input: unknown, path: string[]): string | undefined {
  overLong ??= 'x'.repeat(1 << 20);
  const probe = replaceAt(input, path, overLong);
  if (probe === undefined) return undefined;
  const res = schema.safeParse(probe);
  const key = path.join('.');
  return res.success ? undefined : res.error.issues.find((i) => i.path.join('.') === key)?.message;
}

/** A copy of `input` with the string at `path` replaced (containers on the path copied, the rest shared). */
function replaceAt(input: unknown, path: string[], value: string): unknown {
  if (!path.length) return typeof input === 'string' ? value : undefined;
  if (input === null || typeof input !== 'object') return undefined;
  const [head, ...rest] = path;
  if (!Object.hasOwn(input, head)) return undefined;
  const child = replaceAt((input as Record<string, unknown>)[head], rest, value);
  if (child === undefined) return undefined;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(input) ? [...input] : { ...input };
  (copy as Record<string, unknown>)[head] = child;
  return copy;
}

/** Runs a parse; its validation error becomes the code of the first field message listed in `codes`. */
function recode<T>(codes: RouteSpec<unknown, unknown, unknown>['fieldCodes'], run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (!codes || !(err instanceof AppError) || err.code !== 'validationException') throw err;
    const code = Object.values(err.fields ?? {})
      .map((m) => codes[m])
      .find(Boolean);
    throw code ? new AppError(code, err.fields) : err;
  }
}

type UserAccess = Exclude<Access, 'public' | 'custom'>;

/**
 * A request with an organisation API key: the plan must include the API (OPTION_API), the route must name a scope
 * the key holds, and the key must be within its rate (API_KEY_RATE_LIMIT a minute, shared by every instance).
 */
async function admitKey(app: AppContext, spec: RouteSpec<unknown, unknown, unknown>, auth: AuthContext) {
  const key = auth.apiKey;
  if (!key) return;
  if (!auth.options.has('OPTION_API'))
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_API' });
  if (!spec.scope || !key.scopes.has(spec.scope))
    throw new AppError('accessDeniedException', undefined, spec.scope ? { scope: spec.scope } : undefined);
  await reserve(
    app.db,
    [`api-key:${key.id}`],
    { max: app.config.apiKeyRateLimit, windowMs: 60_000 },
    app.clock.now(),
  );
}

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
        if (auth.apiKey) await admitKey(app, spec, auth);
        if (typeof spec.access === 'object') {
          if ('right' in spec.access && !auth.apiKey && !auth.rights.has(spec.access.right))
            throw new AppError('accessDeniedException');
          if (spec.access.option && !auth.options.has(spec.access.option))
            throw new AppError(
              OPTION_REFUSALS[spec.access.option] ?? 'optionUnavailableException',
              undefined,
              {
                option: spec.access.option,
              },
            );
        }
      }
      const params = parse(spec.params, req.params, 'params');
      const query = parse(spec.query, req.query, 'query');
      const body = recode(spec.fieldCodes, () => parse(spec.body, req.body, 'body'));
      const result = await handler({ req, reply, body, query, params, auth, app });
      // A handler that answered itself (a provider's webhook that wants its own reply body) is left as it is.
      if (spec.raw || reply.sent) return reply.sent ? reply : result;
      return { code: 'ok', entity: result ?? null, error: null };
    },
  });
}
