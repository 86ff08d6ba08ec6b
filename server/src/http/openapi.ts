import {
  ERRORS,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_HEADERS,
  WEBHOOK_TEST_EVENT,
} from '@smartconnect/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { registerApiDocs } from './api-docs.ts';
import { exampleOf, webhookExampleOf } from './openapi-examples.ts';
import { routeRegistry } from './route.ts';

const toSchema = (s: z.ZodType, io: 'input' | 'output' = 'input') =>
  z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

function securityOf(access: unknown, scope: string | undefined) {
  if (access === 'public') return [];
  if (access === 'custom') return [{ channelKey: [] }];
  // A route with a scope also takes an organisation API key, in either header.
  return scope ? [{ bearer: [] }, { apiKey: [scope] }, { apiKeyHeader: [scope] }] : [{ bearer: [] }];
}

function describeAccess(access: unknown): string {
  if (access === 'public') return 'Public.';
  if (access === 'custom') return 'Authenticated by the route itself (channel key or provider signature).';
  if (access === 'user') return 'Any signed-in user.';
  const a = access as { right?: string; option?: string };
  return [a.right && `Requires right ${a.right}.`, a.option && `Requires plan option ${a.option}.`]
    .filter(Boolean)
    .join(' ');
}

/** The 200 answer: the `{code, entity, error}` envelope around the route's entity, or a raw body (files, health). */
function successContent(r: (typeof routeRegistry)[number]) {
  if (r.raw && r.rawText) return { 'text/plain': { schema: { type: 'string' } } };
  if (r.raw && r.rawFile)
    return Object.fromEntries(
      r.rawFile.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    );
  if (r.raw) {
    return r.response
      ? { 'application/json': { schema: toSchema(r.response, 'output') } }
      : { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } };
  }
  const entity = r.response ? toSchema(r.response, 'output') : { type: 'null' };
  return {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'entity', 'error'],
        properties: { code: { const: 'ok' }, entity, error: { type: 'null' } },
      },
      example: { code: 'ok', entity: exampleOf(entity), error: null },
    },
  };
}

/** OpenAPI 3.1 built from the registered routes' zod schemas. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routeRegistry) {
    const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['path', r.params],
      ['query', r.query],
    ] as const) {
      if (!schema) continue;
      const js = toSchema(schema) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, s] of Object.entries(js.properties ?? {})) {
        parameters.push({
          name,
          in: where,
          required: where === 'path' || js.required?.includes(name),
          schema: s,
        });
      }
    }
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      summary: r.summary,
      description: [
        describeAccess(r.access),
        r.scope &&
          `An organisation API key with scope \`${r.scope}\` may call it too (plan option OPTION_API).`,
      ]
        .filter(Boolean)
        .join(' '),
      tags: r.tags,
      security: securityOf(r.access, r.scope),
      parameters,
      // The server reads an omitted body as {}: a body is required only where {} is not a valid one.
      requestBody: r.body
        ? {
            required: !r.body.safeParse({}).success,
            content: {
              'application/json': { schema: toSchema(r.body), example: exampleOf(toSchema(r.body)) },
            },
          }
        : undefined,
      responses: {
        '200': { description: 'Success', content: successContent(r) },
        default: { $ref: '#/components/responses/Error' },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'SmartConnect API',
      version: '1.0.0',
      description:
        'Every answer is `{code, entity, error}`: `code` is `ok` on success, otherwise the error code below.\n\n' +
        '| Error code | HTTP status | Message |\n|---|---|---|\n' +
        Object.entries(ERRORS)
          .map(([code, e]) => `| ${code} | ${e.status} | ${e.message} |`)
          .join('\n'),
    },
    servers: [{ url: '/' }],
    // What event webhooks deliver (README "Event webhooks"): shown on /api/docs.
    'x-webhook-events': {
      types: [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT],
      headers: WEBHOOK_HEADERS,
      body: {
        id: 'the event id, the same on every attempt: dedupe by it',
        type: WEBHOOK_EVENT_TYPES[0],
        createdAt: '2026-11-28T09:30:00.000Z',
        organisationId: '0192f1c4-7c1e-7a3b-9d2e-5f6a7b8c9d0e',
        data: "the event's object, as the REST API presents it: see events.<type>.data",
      },
      signature:
        'HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret, hex, in SmartConnect-Signature t=…,v1=…',
      // Each type: when it is sent, the JSON Schema of its `data`, and an example body.
      events: Object.fromEntries(
        WEBHOOK_EVENT_TYPES.map((type) => {
          const data = toSchema(WEBHOOK_EVENT_DATA[type].schema, 'output');
          return [
            type,
            {
              description: WEBHOOK_EVENT_DATA[type].description,
              data,
              example: webhookExampleOf(type, data),
            },
          ];
        }),
      ),
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        channelKey: { type: 'http', scheme: 'bearer', description: 'A channel inbound key' },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An organisation API key (`sck_…`, Preferences → Integrations): `Authorization: Bearer sck_…`. It reaches ' +
            'the routes naming one of its scopes; at most API_KEY_RATE_LIMIT requests a minute (429 with Retry-After).',
        },
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'The same key in X-Api-Key',
        },
      },
      responses: {
        Error: {
          description: 'An error from the catalogue',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['code', 'error'],
                properties: {
                  code: { type: 'string', enum: Object.keys(ERRORS) },
                  entity: { type: 'null' },
                  error: {
                    type: 'object',
                    properties: {
                      code: { type: 'string' },
                      message: { type: 'string' },
                      fields: { type: 'object', additionalProperties: { type: 'string' } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    paths,
  };
}

export function registerOpenApi(fastify: FastifyInstance): void {
  let cached: Record<string, unknown> | undefined;
  fastify.get('/api/openapi.json', async () => {
    cached ??= buildOpenApi();
    return cached;
  });
  registerApiDocs(fastify);
}
