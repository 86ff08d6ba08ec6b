import { ERRORS } from '@smartconnect/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
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
  return {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code', 'entity', 'error'],
        properties: {
          code: { const: 'ok' },
          entity: r.response ? toSchema(r.response, 'output') : { type: 'null' },
          error: { type: 'null' },
        },
      },
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
            content: { 'application/json': { schema: toSchema(r.body) } },
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

const docsPage = `<!doctype html><html><head><meta charset="utf-8"><title>SmartConnect API</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:0;color:#1a1b1e}header{background:#1c7ed6;color:#fff;padding:16px 24px}
main{max-width:1100px;margin:0 auto;padding:16px 24px}section{border:1px solid #dee2e6;border-radius:8px;margin:10px 0;padding:10px 14px}
.m{display:inline-block;min-width:64px;font-weight:700;font-family:monospace}.GET{color:#2f9e44}.POST{color:#1c7ed6}.PATCH,.PUT{color:#f08c00}.DELETE{color:#e03131}
code,pre{font-family:ui-monospace,monospace;font-size:12px}pre{background:#f8f9fa;padding:8px;overflow:auto;max-height:300px}
small{color:#495057}table{border-collapse:collapse}td,th{border:1px solid #dee2e6;padding:2px 6px;font-size:13px}</style></head>
<body><header><h1 style="margin:0;font-size:20px">SmartConnect API reference</h1><small style="color:#e7f5ff">OpenAPI 3.1: <a style="color:#fff" href="/api/openapi.json">/api/openapi.json</a></small></header>
<main id="root">Loading…</main><script src="/api/docs/app.js"></script></body></html>`;

// External, not inline: the Content-Security-Policy allows scripts from this origin only.
const docsScript = `fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{const root=document.getElementById('root');root.textContent='';
const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
for(const [path,ops] of Object.entries(doc.paths)){for(const [m,op] of Object.entries(ops)){const s=document.createElement('section');
s.innerHTML='<div><span class="m '+m.toUpperCase()+'">'+m.toUpperCase()+'</span> <code>'+esc(path)+'</code> — '+esc(op.summary||'')+'</div><small>'+esc(op.description||'')+'</small>'+
(op.requestBody?'<details><summary>Body</summary><pre>'+esc(JSON.stringify(op.requestBody.content['application/json'].schema,null,2))+'</pre></details>':'')+
(op.parameters&&op.parameters.length?'<details><summary>Parameters</summary><pre>'+esc(JSON.stringify(op.parameters,null,2))+'</pre></details>':'')+
(op.responses&&op.responses['200']&&op.responses['200'].content?'<details><summary>Answer</summary><pre>'+esc(JSON.stringify(op.responses['200'].content[Object.keys(op.responses['200'].content)[0]].schema,null,2))+'</pre></details>':'');root.appendChild(s);}}});
`;

export function registerOpenApi(fastify: FastifyInstance): void {
  let cached: Record<string, unknown> | undefined;
  fastify.get('/api/openapi.json', async () => {
    cached ??= buildOpenApi();
    return cached;
  });
  fastify.get('/api/docs', async (_req, reply) => reply.type('text/html').send(docsPage));
  fastify.get('/api/docs/app.js', async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').send(docsScript),
  );
}
