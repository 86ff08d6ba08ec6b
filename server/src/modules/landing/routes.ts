import {
  type LandingRequestDto,
  type LandingRequestPage,
  landingRequestBodySchema,
  landingRequestDto,
  landingRequestListQuerySchema,
  landingRequestPageDto,
  FIELD_MESSAGES as M,
} from '@smartconnect/contracts';
import { one, type Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import { definePublicRoute, defineRoute, type ModuleRoutes } from '../../http/route.ts';
import { reserve } from '../../lib/rate-limit.ts';

const tags = ['landing'];
/** Trial requests one address may send: a visitor retrying is fine, a script filling the table is not. */
export const LANDING_RATE = { max: 10, windowMs: 10 * 60_000 } as const;

type Row = {
  id: string;
  phone: string;
  name: string | null;
  company: string | null;
  form: LandingRequestDto['form'];
  language: LandingRequestDto['language'];
  created_at: Date;
};
const present = (r: Row): LandingRequestDto => ({
  id: r.id,
  phone: r.phone,
  name: r.name,
  company: r.company,
  form: r.form,
  language: r.language,
  createdAt: r.created_at.toISOString(),
});

/** Keyset cursor: the creation time and id of the last row of a page. */
const encodeCursor = (r: Row) => Buffer.from(`${r.created_at.toISOString()}|${r.id}`).toString('base64url');
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const date = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(date.getTime()))
    throw new AppError('validationException', { cursor: M.incorrectValue });
  return { at: date, id };
}

async function listRequests(q: Queryable, limit: number, cursor?: string): Promise<LandingRequestPage> {
  const after = cursor ? decodeCursor(cursor) : null;
  const rows = await q.query<Row>(
    `select id, phone, name, company, form, language, created_at from landing_requests
      where ($1::timestamptz is null or (created_at, id) < ($1::timestamptz, $2::uuid))
      order by created_at desc, id desc limit $3`,
    [after?.at ?? null, after?.id ?? null, limit + 1],
  );
  const count = await one<{ n: number }>(q, 'select count(*)::int as n from landing_requests');
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(present),
    total: count.n,
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

/** The landing page's trial requests (§2.2, §3, §4) and their list for platform staff (RIGHT_OBSERVER). */
export const landingRoutes: ModuleRoutes = (fastify, app) => {
  definePublicRoute(
    fastify,
    app,
    {
      method: 'POST',
      url: '/api/landing-requests',
      access: 'public',
      response: landingRequestDto.pick({ id: true, createdAt: true }),
      summary:
        'A trial request from the landing page: the short form sends the phone, the long form and the trial modal ' +
        'also the name and organisation name. Rate-limited per address (429 with Retry-After); a filled honeypot ' +
        '(`website`) is answered alike and not stored',
      tags,
      body: landingRequestBodySchema,
      bodyLimit: 16 * 1024,
    },
    async ({ req, body }) => {
      const now = app.clock.now();
      await reserve(app.db, [`landing:${req.ip}`], LANDING_RATE, now);
      if (body.website) {
        req.log.info({ event: 'landing.honeypot' }, 'landing request dropped: honeypot filled');
        return { id: crypto.randomUUID(), createdAt: now.toISOString() };
      }
      const row = await one<{ id: string }>(
        app.db,
        `insert into landing_requests (phone, name, company, form, language, created_at)
         values ($1, $2, $3, $4, $5, $6) returning id`,
        [body.phone, body.name, body.company, body.form, body.language, now],
      );
      req.log.info({ event: 'landing.request', form: body.form }, 'landing request created');
      return { id: row.id, createdAt: now.toISOString() };
    },
  );
  defineRoute(
    fastify,
    app,
    {
      method: 'GET',
      url: '/api/landing-requests',
      access: { right: 'RIGHT_OBSERVER' },
      response: landingRequestPageDto,
      summary:
        "The landing page's trial requests, newest first, keyset-paginated by ?cursor= (platform staff)",
      tags,
      query: landingRequestListQuerySchema,
    },
    async ({ query }) => listRequests(app.db, query.limit, query.cursor),
  );
};
