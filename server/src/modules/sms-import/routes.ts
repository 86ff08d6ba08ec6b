import {
  idParams,
  page,
  smsCallbackDto,
  smsImportDto,
  smsImportListQuerySchema,
  smsImportStartSchema,
} from '@smartconnect/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { inboundChannel } from '../channels/service.ts';
import { type FormFields, isSmsRuData, receiveCallback } from './callback.ts';
import * as S from './service.ts';

const tags = ['sms-import'];
/** Importing is part of mailings: the same right and plan option (DECISIONS.md "Mailings", "SMS-system import"). */
const access = { right: 'AUTHORITY_MAILING', option: 'OPTION_MAILING' } as const;

/** Issue 33: SMS sent through an outside SMS service, imported from its export files and its callbacks. */
export const smsImportRoutes: ModuleRoutes = (fastify, app) => {
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/sms-imports',
      access,
      response: page(smsImportDto),
      summary:
        "The organisation's SMS imports, newest first (at most 100), with their progress and summaries",
      tags,
      query: smsImportListQuerySchema,
    },
    async ({ auth, query }) => {
      const items = await S.listImports(app, auth, query.channelId);
      return { items, total: items.length };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/sms-imports',
      access,
      response: smsImportDto,
      summary:
        "Import an SMS service's export (multipart: `channelId` of an `sms` channel, then `file`: CSV in UTF-8, UTF-16 or Windows-1251 with ; , or tab, or XLSX; at most 40 MB and 200,000 rows; optional `mapping`, JSON of the columns). SMS.ru and SMSC.ru exports and headers mapped before start at once (status running); others wait for their columns (status mapping, with a guess in `suggested`). A file that is not a table answers 400 fileUploadException with details.reason",
      tags,
      bodyLimit: 41 * 1024 * 1024,
    },
    async ({ auth, req }) => S.createImport(app, auth, req),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/sms-imports/:id',
      access,
      response: smsImportDto,
      summary:
        'An import: its progress (processedRows of totalRows) and summary (imported, duplicates, refused with the first rows refused: line and reason)',
      tags,
      params: idParams,
    },
    async ({ auth, params }) => S.getImport(app, auth, params.id),
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/sms-imports/:id/start',
      access,
      response: smsImportDto,
      summary:
        'Choose the columns of an import that waits for them (0-based: phone and text needed; sentAt, status, messageId optional) and start it; the choice is remembered for files with the same header. 409 mailingStateException once it has started',
      tags,
      params: idParams,
      body: smsImportStartSchema,
    },
    async ({ auth, params, body }) => S.startImport(app, auth, params.id, body.mapping),
  );
  fastify.register(async (raw) => callbackRoutes(raw, app));
};

/** Form bodies as records of strings (a repeated name, or `data[]`, becomes an array). */
function formFields(text: string): FormFields {
  const out: FormFields = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const key = k.endsWith('[]') ? k.slice(0, -2) : k;
    const had = out[key];
    out[key] = had === undefined ? (k.endsWith('[]') ? [v] : v) : [...(Array.isArray(had) ? had : [had]), v];
  }
  return out;
}

const bodies = new WeakMap<FastifyRequest, { json: unknown; fields: FormFields }>();

/** The service's callback: its own parsers (form bodies, JSON, anything else ignored) and its key check. */
function callbackRoutes(fastify: FastifyInstance, app: AppContext) {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (req, body, done) => {
      try {
        bodies.set(req, {
          json: (body as string).length ? JSON.parse(body as string) : undefined,
          fields: {},
        });
        done(null, undefined);
      } catch (err) {
        (err as Error & { statusCode: number }).statusCode = 400;
        done(err as Error, undefined);
      }
    },
  );
  fastify.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (req, body, done) => {
    bodies.set(req, { json: undefined, fields: formFields(body as string) });
    done(null, undefined);
  });
  for (const method of ['POST', 'GET'] as const)
    definePublicRoute(
      fastify,
      app,
      {
        method,
        url: '/api/sms/:id/callback',
        access: 'custom',
        response: smsCallbackDto,
        summary:
          method === 'POST'
            ? "An SMS service's callback to an `sms` channel, with the key shown when it was created (?key=…, X-Api-Key or Authorization: Bearer): SMS.ru's status reports (form data[]; answered `100`), SMSC.ru's status handler (form id, phone, status, err, ts, mes), or JSON {id, phone, text, sentAt, status} / {messages: […]}. An SMS with its text is stored in the client's history (by phone; idempotent by its id), a status moves a stored SMS's delivery status forward"
            : "SMSC.ru's status handler called with GET (the same fields in the query)",
        tags,
        params: idParams,
      },
      async ({ params, req, reply }) => {
        const query = (req.query ?? {}) as Record<string, unknown>;
        const input = bodies.get(req) ?? { json: undefined, fields: {} };
        if (method === 'GET')
          input.fields = Object.fromEntries(
            Object.entries(query).flatMap(([k, v]) =>
              typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))
                ? [[k, v as string | string[]]]
                : [],
            ),
          );
        const { row } = await inboundChannel(
          app,
          params.id,
          { headers: req.headers, query, rawBody: Buffer.alloc(0), body: undefined, endpoint: 'callback' },
          'sms',
        );
        const result = await receiveCallback(app, row, input);
        // SMS.ru reads `100` as "received" and retries anything else.
        if (Object.keys(input.fields).some(isSmsRuData))
          return reply.type('text/plain; charset=utf-8').send('100');
        return result;
      },
    );
}
