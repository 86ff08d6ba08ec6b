import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { solveChallenge } from 'altcha-lib/v1';
import { z } from 'zod';
import { type RegisteredRoute, routeRegistry } from '../../src/http/route.ts';
import {
  createOrganisation,
  createPlatformStaff,
  startTestServer,
  TEST_PASSWORD,
  type TestOrg,
  type TestServer,
} from '../helpers.ts';
import { type FixtureCall, fixtures, jpeg } from '../route-fixtures.ts';

/**
 * Bad input on every route of the registry: NUL bytes, lone surrogates, wrong types, huge strings and deep nesting
 * in each body field, each query parameter, each path parameter and the body as a whole, sent on real objects so
 * the handlers are reached. A client's mistake is a 4xx in the {code, entity, error} envelope (or, for provider
 * text, a 200 after sanitising) and leaves no error or stack in the server log; a 5xx is a bug. The test names
 * each route and input that broke a rule.
 */

const BODY_LIMIT = 1024 * 1024;
const DEPTH = 10_000;
const DEEP_ARRAYS = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const DEEP_OBJECTS = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

/**
 * Values put in place of one body field, as raw JSON text (`"\ud800"` is how JSON carries a lone surrogate). The
 * first five cannot be stored: a form must refuse them (4xx), never pass them on.
 */
const FIELD_VALUES: [string, string][] = [
  ['NUL', JSON.stringify('a\u0000b')],
  ['only NUL', JSON.stringify('\u0000')],
  ['lone high surrogate', JSON.stringify('x\uD800')],
  ['lone low surrogate', JSON.stringify('\uDC00y')],
  ['reversed surrogate pair', JSON.stringify('\uDC00\uD800')],
  ['NUL in an array', JSON.stringify(['\u0000', '\uD800'])],
  ['NUL key and lone surrogate value', JSON.stringify({ '\u0000': '\uD800', url: 'http://x/\u0000' })],
  ['number', '12345'],
  ['huge number', '1e400'],
  ['boolean', 'true'],
  ['null', 'null'],
  ['array', '["a",1,null]'],
  ['object', '{"a":"b"}'],
  // Far over every field's maximum, within the body limit (bad-input.test sends one of 900 KB).
  ['huge string', JSON.stringify('x'.repeat(256 * 1024))],
  ['deep arrays', DEEP_ARRAYS],
  ['deep objects', DEEP_OBJECTS],
];

/** Raw query-string values (written into the URL as they are: escapes and raw bytes); the first two are NUL. */
const QUERY_VALUES: [string, (key: string) => string][] = [
  ['%00', (k) => `${k}=%00`],
  ['a%00b', (k) => `${k}=a%00b`],
  ['%ED%A0%80 (a lone surrogate in UTF-8)', (k) => `${k}=%ED%A0%80`],
  ['raw lone-surrogate bytes', (k) => `${k}=\u00ed\u00a0\u0080`],
  ['%FF', (k) => `${k}=%FF`],
  ['%C0%80 (overlong NUL)', (k) => `${k}=%C0%80`],
  ['lone %', (k) => `${k}=%`],
  ['repeated', (k) => `${k}=a&${k}=%00`],
  ['bracketed', (k) => `${k}[a]=%00&${k}[]=b`],
  ['huge', (k) => `${k}=${'x'.repeat(8_000)}`],
  ['raw NUL byte', (k) => `${k}=\u0000`],
];

/** Raw path-parameter values. */
const PATH_VALUES: [string, string][] = [
  ['%00', '%00'],
  ['a%00b', 'a%00b'],
  ['%ED%A0%80', '%ED%A0%80'],
  ['raw lone-surrogate bytes', '\u00ed\u00a0\u0080'],
  ['%FF', '%FF'],
  ['%C0%80', '%C0%80'],
  ['%', '%'],
  ['huge', 'x'.repeat(5_000)],
  ['raw NUL byte', '\u0000'],
];

/** Whole-body replacements (raw JSON text) for routes that take a body. */
const BODY_VALUES: [string, (base: unknown) => string][] = [
  ['null', () => 'null'],
  ['array', () => '[]'],
  ['string with NUL', () => JSON.stringify('\u0000')],
  ['number', () => '1'],
  ['malformed JSON', () => '{"a":'],
  ['deep arrays', () => DEEP_ARRAYS],
  ['deep objects', () => DEEP_OBJECTS],
  ['NUL key', (base) => JSON.stringify({ ...(base as object), '\u0000': '\uD800', 'a\u0000': 1 })],
  ['over the body limit', (base) => JSON.stringify({ ...(base as object), pad: 'x'.repeat(BODY_LIMIT) })],
];

type Target = FixtureCall & {
  /** Who calls: a bearer token (user session or channel key), or nobody. */
  token?: string;
  /** Provider text: stored after cleaning rather than refused. */
  sanitises?: boolean;
  /** Turns the body into a fresh one for each request (a new provider message id, so it is not a retry). */
  fresh?: (body: Record<string, unknown>, fuzzed: string) => Record<string, unknown>;
};
type Ctx = { s: TestServer; org: TestOrg; staff: string };

let seq = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${(seq++).toString(36)}`;

async function ok(res: Promise<{ status: number; body: { entity: unknown } }>, what: string) {
  const r = await res;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.entity as Record<string, string>;
}

/** An API channel with a chat that the admin has taken and answered: ids for the provider routes. */
/** An SMS import channel (its callback key). */
async function smsSetup({ org }: Ctx) {
  const team = await ok(
    org.admin.api.post('/api/teams', { name: uniq('Fuzz'), description: 'Fuzz' }),
    'team',
  );
  return ok(
    org.admin.api.post('/api/channels', { type: 'sms', name: uniq('SMS'), teamId: team.id, service: 'smsc' }),
    'sms channel',
  );
}

async function providerSetup({ s, org }: Ctx) {
  const team = await ok(
    org.admin.api.post('/api/teams', { name: uniq('Fuzz'), description: 'Fuzz' }),
    'team',
  );
  const ch = await ok(
    org.admin.api.post('/api/channels', {
      type: 'api',
      name: uniq('Fuzz'),
      teamId: team.id,
      webhookUrl: 'http://127.0.0.1:9/x',
    }),
    'channel',
  );
  const inbound = await ok(
    s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
      externalMessageId: uniq('m'),
      client: { externalId: uniq('c'), name: 'Fuzz Client' },
      text: 'Hello',
    }),
    'inbound',
  );
  await ok(org.admin.api.post(`/api/chats/${inbound.chatId}/take`), 'take');
  const sent = await ok(org.admin.api.post(`/api/chats/${inbound.chatId}/messages`, { text: 'Hi' }), 'send');
  return { channelId: ch.id, inboundKey: ch.inboundKey, messageId: sent.id };
}

/** A site_chat channel with a visitor who wrote, an operator answer and an uploaded file (the widget's routes). */
async function widgetSetup({ s, org }: Ctx) {
  const team = await ok(
    org.admin.api.post('/api/teams', { name: uniq('Site'), description: 'Site' }),
    'team',
  );
  const ch = await ok(
    org.admin.api.post('/api/channels', { type: 'site_chat', name: uniq('Site'), teamId: team.id }),
    'channel',
  );
  const v = await ok(s.api.post(`/api/widget/${ch.id}/visitors`), 'visitor');
  const q = `token=${encodeURIComponent(v.token)}`;
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const file = await ok(s.api.call('POST', `/api/widget/${ch.id}/files?${q}&name=a.png`, png), 'file');
  const sent = await ok(
    s.api.post(`/api/widget/${ch.id}/messages?${q}`, { clientMessageId: uniq('cm'), text: 'Hello' }),
    'widget message',
  );
  const chatId = (
    (await ok(org.admin.api.get('/api/chats?filter=waiting'), 'chats')).items as unknown as { id: string }[]
  )[0]?.id;
  if (chatId) await ok(org.admin.api.post(`/api/chats/${chatId}/take`), 'take');
  const answer =
    chatId && (await ok(org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Hi' }), 'send'));
  return { channelId: ch.id, q, fileKey: file.key, messageId: (answer || sent).id };
}

/** A rating link: an API channel with assessment on, a chat closed by the admin (its link in the chat). */
async function ratingLink(ctx: Ctx) {
  const { org } = ctx;
  const team = await ok(
    org.admin.api.post('/api/teams', { name: uniq('Rate'), description: 'Rate' }),
    'team',
  );
  const ch = await ok(
    org.admin.api.post('/api/channels', {
      type: 'api',
      name: uniq('Rate'),
      teamId: team.id,
      webhookUrl: 'http://127.0.0.1:9/x',
      assessment: { enabled: true },
    }),
    'channel',
  );
  const inbound = await ok(
    ctx.s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
      externalMessageId: uniq('m'),
      client: { externalId: uniq('c'), name: 'Rater' },
      text: 'Hello',
    }),
    'inbound',
  );
  const cat = await ok(org.admin.api.post('/api/categories', { name: uniq('Cat') }), 'category');
  await ok(org.admin.api.post(`/api/chats/${inbound.chatId}/close`, { categoryId: cat.id }), 'close');
  const msgs = (await ok(org.admin.api.get(`/api/chats/${inbound.chatId}/messages`), 'messages'))
    .items as unknown as { text: string }[];
  const uuid = msgs.map((m) => /link-action\/([0-9a-f-]{36})/.exec(m.text)?.[1]).find(Boolean);
  if (!uuid) throw new Error('no rating link');
  return uuid;
}

/** Base calls of the routes route-fixtures.ts does not cover (signed-in self-service, public and provider routes). */
const extraFixtures: Record<string, (ctx: Ctx) => Promise<Target>> = {
  'GET /api/users': async () => ({ path: '/api/users' }),
  'GET /api/teams': async () => ({ path: '/api/teams' }),
  'GET /api/rights': async () => ({ path: '/api/rights' }),
  // observability (issue 20)
  'GET /api/ready': async () => ({ path: '/api/ready' }),
  'GET /metrics': async () => ({ path: '/metrics' }),
  'GET /api/telemetry/config': async () => ({ path: '/api/telemetry/config' }),
  'POST /api/telemetry': async () => ({
    path: '/api/telemetry',
    body: {
      meta: { app: { name: 'SmartConnect' }, session: { id: 's1' }, page: { url: 'http://x/login' } },
      measurements: [{ type: 'web-vitals', values: { fcp: 100 } }],
      logs: [{ message: 'hello' }],
    },
  }),
  'GET /api/roles': async () => ({ path: '/api/roles' }),
  'GET /api/chats': async () => ({ path: '/api/chats' }),
  'GET /api/chats/counters': async () => ({ path: '/api/chats/counters' }),
  'GET /api/chats/expired': async () => ({ path: '/api/chats/expired' }),
  'GET /api/chats/filter-options': async () => ({ path: '/api/chats/filter-options' }),
  'GET /api/search/messages': async () => ({ path: '/api/search/messages?q=hello' }),
  'GET /api/search/clients': async () => ({ path: '/api/search/clients?q=client' }),
  'GET /api/clients': async () => ({ path: '/api/clients?q=client' }),
  // Instagram / Facebook login (issue 15): the provider's redirect back, with a state we did not seal.
  'GET /api/channels/oauth/:type/callback': async () => ({
    path: '/api/channels/oauth/instagram/callback?code=fuzz&state=fuzz',
  }),
  // knowledge base (issue 36): a public article's page
  'GET /kb/:organisation/:slug': async (ctx) => {
    const team = await ok(
      ctx.org.admin.api.post('/api/teams', { name: uniq('Fuzz'), description: 'Fuzz' }),
      'team',
    );
    const c = await ok(
      ctx.org.admin.api.post('/api/kb/categories', { name: uniq('Fuzz'), teamIds: [team.id] }),
      'kb category',
    );
    const a = await ok(
      ctx.org.admin.api.post('/api/kb/articles', { title: 'Fuzz', categoryId: c.id, public: true }),
      'kb article',
    );
    return { path: a.publicPath as string };
  },
  // landing page (issue 19)
  'POST /api/landing-requests': async () => ({
    path: '/api/landing-requests',
    body: { phone: '+79001234567', name: 'Fuzz', company: 'Fuzz LLC', form: 'long' },
  }),
  // client profiles (issue 14)
  'GET /api/client-statuses': async () => ({ path: '/api/client-statuses' }),
  'GET /api/companies': async () => ({ path: '/api/companies?search=a' }),
  'POST /api/chats': async (ctx) => {
    const { channelId } = await providerSetup(ctx);
    const found = await ok(ctx.org.admin.api.get('/api/clients?q=Fuzz%20Client'), 'clients');
    const clients = found.items as unknown as { id: string; contacts: { channelId: string }[] }[];
    const clientId = clients.find((c) => c.contacts.some((x) => x.channelId === channelId))?.id;
    return { path: '/api/chats', body: { clientId, channelId, text: 'Hello' } };
  },
  'GET /api/widget/:channelId/config': async (ctx) => ({
    path: `/api/widget/${(await widgetSetup(ctx)).channelId}/config`,
  }),
  'POST /api/widget/:channelId/visitors': async (ctx) => ({
    path: `/api/widget/${(await widgetSetup(ctx)).channelId}/visitors`,
    body: { name: 'Ann' },
  }),
  'GET /api/widget/:channelId/messages': async (ctx) => {
    const w = await widgetSetup(ctx);
    return { path: `/api/widget/${w.channelId}/messages?${w.q}` };
  },
  'POST /api/widget/:channelId/messages': async (ctx) => {
    const w = await widgetSetup(ctx);
    return {
      path: `/api/widget/${w.channelId}/messages?${w.q}`,
      body: { clientMessageId: uniq('cm'), text: 'Hello' },
      sanitises: true,
      fresh: (body) => ({ ...body, clientMessageId: uniq('cm') }),
    };
  },
  'POST /api/widget/:channelId/read': async (ctx) => {
    const w = await widgetSetup(ctx);
    return {
      path: `/api/widget/${w.channelId}/read?${w.q}`,
      body: { messageIds: [w.messageId], status: 'read' },
    };
  },
  'POST /api/widget/:channelId/profile': async (ctx) => {
    const w = await widgetSetup(ctx);
    return {
      path: `/api/widget/${w.channelId}/profile?${w.q}`,
      body: { name: 'Ann Lee', email: 'ann@example.com', phone: '+44 20 7946 0000' },
    };
  },
  'POST /api/widget/:channelId/files': async (ctx) => {
    const w = await widgetSetup(ctx);
    return { path: `/api/widget/${w.channelId}/files?${w.q}&name=a.pdf`, body: { pdf: '%PDF-1.4' } };
  },
  'GET /api/widget/:channelId/files/:key': async (ctx) => {
    const w = await widgetSetup(ctx);
    return { path: `/api/widget/${w.channelId}/files/${w.fileKey}` };
  },
  'GET /api/widget/:channelId/ws': async (ctx) => {
    const w = await widgetSetup(ctx);
    return { path: `/api/widget/${w.channelId}/ws?${w.q}` };
  },
  'POST /api/widget/:channelId/rating': async (ctx) => {
    const w = await widgetSetup(ctx);
    return {
      path: `/api/widget/${w.channelId}/rating?${w.q}`,
      body: { uuid: '00000000-0000-4000-8000-000000000000', score: 5 },
    };
  },
  'GET /api/link-actions/:uuid': async (ctx) => ({ path: `/api/link-actions/${await ratingLink(ctx)}` }),
  'POST /api/link-actions/:uuid': async (ctx) => ({
    path: `/api/link-actions/${await ratingLink(ctx)}`,
    body: { score: 4 },
  }),
  'GET /api/chats/:id/ratings': async (ctx) => {
    const p = await providerSetup(ctx);
    const chats = (await ok(ctx.org.admin.api.get('/api/chats?filter=assigned'), 'chats'))
      .items as unknown as {
      id: string;
    }[];
    return { path: `/api/chats/${chats[0]?.id ?? p.messageId}/ratings` };
  },
  'GET /api/support/channel': async () => ({ path: '/api/support/channel' }),
  'POST /api/support/visitor': async () => ({ path: '/api/support/visitor' }),
  'GET /api/categories': async () => ({ path: '/api/categories' }),
  'GET /api/organisation': async () => ({ path: '/api/organisation' }),
  'GET /api/organisation/first-run': async () => ({ path: '/api/organisation/first-run' }),
  'GET /api/health': async () => ({ path: '/api/health' }),
  'GET /api/auth/user': async () => ({ path: '/api/auth/user' }),
  'GET /api/acc/user/short': async () => ({ path: '/api/acc/user/short' }),
  'POST /api/auth/generate': async () => ({ path: '/api/auth/generate' }),
  'PATCH /api/auth/toggle': async () => ({ path: '/api/auth/toggle', body: { enabled: false } }),
  'PATCH /api/auth/acc/update': async () => ({ path: '/api/auth/acc/update', body: { name: 'Admin' } }),
  'PUT /api/auth/acc/photo': async () => ({
    path: '/api/auth/acc/photo',
    body: jpeg(),
    headers: { 'content-type': 'image/jpeg' },
  }),
  'DELETE /api/auth/acc/photo': async () => ({ path: '/api/auth/acc/photo' }),
  // A user of its own: a call that gets through changes the password or ends the session.
  'POST /api/auth/acc/passwordChange': async ({ org }) => ({
    path: '/api/auth/acc/passwordChange',
    body: { oldPassword: TEST_PASSWORD, password: 'Passw0rd!2', repeatPassword: 'Passw0rd!2' },
    token: (await org.user()).token,
  }),
  'POST /api/auth/acc/logout': async ({ org }) => ({
    path: '/api/auth/acc/logout',
    body: {},
    token: (await org.user()).token,
  }),
  'PATCH /api/presence': async () => ({ path: '/api/presence', body: { status: 'offline' } }),
  'POST /api/auth/login': async ({ org }) => ({
    path: '/api/auth/login',
    body: { email: org.admin.email, password: TEST_PASSWORD },
  }),
  'POST /api/auth/login/two-factor': async () => ({
    path: '/api/auth/login/two-factor',
    body: { ticket: 'not-a-ticket', code: '123456' },
  }),
  'POST /api/auth/recovery': async ({ org }) => ({
    path: '/api/auth/recovery',
    body: { email: org.admin.email },
  }),
  'GET /api/auth/recovery/:token': async () => ({ path: '/api/auth/recovery/not-a-token' }),
  'POST /api/auth/recovery/reset': async () => ({
    path: '/api/auth/recovery/reset',
    body: { token: 'not-a-token', password: 'Passw0rd!', repeatPassword: 'Passw0rd!' },
  }),
  'GET /api/files/:key': async () => ({ path: `/api/files/${'a'.repeat(24)}` }),
  'POST /api/channels/:id/inbound': async (ctx) => {
    const p = await providerSetup(ctx);
    return {
      path: `/api/channels/${p.channelId}/inbound`,
      token: p.inboundKey,
      sanitises: true,
      body: {
        externalMessageId: 'm',
        client: { externalId: 'fuzz-client', name: 'Fuzz Client' },
        text: 'Hello',
        attachments: [{ url: 'https://example.com/a.png', name: 'a.png', contentType: 'image/png', size: 1 }],
      },
      fresh: (body, fuzzed) =>
        fuzzed === 'externalMessageId' ? body : { ...body, externalMessageId: uniq('fuzz') },
    };
  },
  // SMS-system import (issue 33): a service's callback with the channel's key.
  'POST /api/sms/:id/callback': async (ctx) => {
    const ch = await smsSetup(ctx);
    return {
      path: `/api/sms/${ch.id}/callback`,
      token: ch.inboundKey,
      sanitises: true,
      body: {
        id: 'sms-1',
        phone: '+79160000000',
        text: 'Hello',
        sentAt: '2026-11-27T10:00:00Z',
        status: 'delivered',
      },
      fresh: (body, fuzzed) => (fuzzed === 'id' ? body : { ...body, id: uniq('sms') }),
    };
  },
  'GET /api/sms/:id/callback': async (ctx) => {
    const ch = await smsSetup(ctx);
    return {
      path: `/api/sms/${ch.id}/callback?id=900&phone=79160000000&status=1&mes=Hello`,
      token: ch.inboundKey,
      sanitises: true,
    };
  },
  // A provider's verification GET of the webhook URL (the API channel has none: 404), with a query to fuzz.
  'GET /api/webhooks/:type/:channelId': async (ctx) => {
    const p = await providerSetup(ctx);
    return { path: `/api/webhooks/api/${p.channelId}?hub.challenge=c` };
  },
  // The common provider webhook, here for an API channel (its own key; a message body).
  'POST /api/webhooks/:type/:channelId': async (ctx) => {
    const p = await providerSetup(ctx);
    return {
      path: `/api/webhooks/api/${p.channelId}`,
      token: p.inboundKey,
      sanitises: true,
      body: {
        externalMessageId: 'w',
        client: { externalId: 'fuzz-client', name: 'Fuzz Client' },
        text: 'Hi',
      },
      fresh: (body, fuzzed) =>
        fuzzed === 'externalMessageId' ? body : { ...body, externalMessageId: uniq('fuzz-w') },
    };
  },
  'POST /api/channels/:id/status': async (ctx) => {
    const p = await providerSetup(ctx);
    return {
      path: `/api/channels/${p.channelId}/status`,
      token: p.inboundKey,
      body: { messageId: p.messageId, status: 'delivered' },
    };
  },
  // sign-up (issue 19): one registration made before the start route is fuzzed (which spends the address's limit)
  'GET /api/signup/challenge': async () => ({ path: '/api/signup/challenge' }),
  'POST /api/signup': async (ctx) => {
    await signupToken(ctx);
    return { path: '/api/signup', body: await signupBody(ctx) };
  },
  'GET /api/signup/:token': async (ctx) => ({ path: `/api/signup/${await signupToken(ctx)}` }),
  'POST /api/signup/:token/email-code': async (ctx) => ({
    path: `/api/signup/${await signupToken(ctx)}/email-code`,
    body: { code: '123456' },
  }),
  'POST /api/signup/:token/phone-code': async (ctx) => ({
    path: `/api/signup/${await signupToken(ctx)}/phone-code`,
    body: { code: '123456' },
  }),
  'POST /api/signup/:token/resend': async (ctx) => ({ path: `/api/signup/${await signupToken(ctx)}/resend` }),
  // Chat bots (issue 18): a bot's tracked link (an unknown one redirects home).
  'GET /bot-action/:uuid': async () => ({ path: `/bot-action/${crypto.randomUUID()}` }),
  // payment provider notifications (issue 19): a payment we do not know is acknowledged and ignored.
  'POST /api/finance/yookassa/notifications': async () => ({
    path: '/api/finance/yookassa/notifications',
    body: { type: 'notification', event: 'payment.succeeded', object: { id: 'fuzz-payment' } },
  }),
};

/** A sign-up's first step with a solved captcha (ALTCHA) and a new e-mail. */
async function signupBody(ctx: Ctx) {
  const c = (await ok(ctx.s.api.get('/api/signup/challenge'), 'challenge')) as Record<string, string>;
  const found = await solveChallenge(c.challenge, c.salt, c.algorithm, Number(c.maxnumber)).promise;
  const payload = { ...c, number: found?.number, provider: undefined, maxnumber: undefined };
  const captcha = Buffer.from(JSON.stringify(payload)).toString('base64');
  return {
    company: 'Fuzz LLC',
    email: `${uniq('fuzz')}@signup.test`,
    phone: '+79001234567',
    consent: true,
    captcha,
  };
}
let signupTokenOnce: Promise<string> | undefined;
function signupToken(ctx: Ctx): Promise<string> {
  signupTokenOnce ??= (async () => {
    const started = await ok(ctx.s.api.post('/api/signup', await signupBody(ctx)), 'signup');
    return (started as { token: string }).token;
  })();
  return signupTokenOnce;
}

/** The base call of a route, with the caller its access needs. */
async function baseCall(ctx: Ctx, r: RegisteredRoute): Promise<Target | undefined> {
  const key = `${r.method} ${r.url}`;
  if (extraFixtures[key]) {
    const t = await extraFixtures[key](ctx);
    if (t.token === undefined && r.access !== 'public') t.token = ctx.org.admin.token;
    return t;
  }
  if (!fixtures[key]) return undefined;
  const call = await fixtures[key](ctx.org, ctx.s);
  const observer = typeof r.access === 'object' && 'right' in r.access && r.access.right === 'RIGHT_OBSERVER';
  return { ...call, token: observer ? ctx.staff : ctx.org.admin.token };
}

/** Top-level fields a schema declares (object or union of objects). */
function schemaKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
    anyOf?: { properties?: Record<string, unknown> }[];
  };
  return [
    ...Object.keys(json.properties ?? {}),
    ...(json.anyOf ?? []).flatMap((s) => Object.keys(s.properties ?? {})),
  ];
}

/** Every path of a JSON value: objects' keys, arrays' items, nested. */
function valuePaths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...valuePaths(v, [...prefix, k])]);
}

const PLACEHOLDER = '__fuzz_placeholder__';
/** The body as JSON text with `raw` (any JSON text) at `path`. */
function bodyWith(base: Record<string, unknown>, path: string[], raw: string): string {
  const copy = structuredClone(base);
  let node = copy as Record<string, unknown>;
  for (const k of path.slice(0, -1)) {
    if (node[k] === null || typeof node[k] !== 'object') node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = PLACEHOLDER;
  return JSON.stringify(copy).replace(`"${PLACEHOLDER}"`, () => raw);
}

type Answer = { status: number; code?: string; error?: string };

/**
 * One HTTP/1.1 request over a plain socket, so the request line may carry any bytes (raw NUL, invalid UTF-8)
 * that an HTTP client library would refuse or escape.
 */
function rawRequest(
  port: number,
  method: string,
  target: string,
  opts: { token?: string; body?: string | Uint8Array; contentType?: string },
): Promise<Answer> {
  return new Promise((resolve) => {
    const body = typeof opts.body === 'string' ? Buffer.from(opts.body, 'utf8') : opts.body;
    const head = [
      `${method} ${target} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Connection: close',
      ...(opts.token ? [`Authorization: Bearer ${opts.token}`] : []),
      ...(body
        ? [`Content-Type: ${opts.contentType ?? 'application/json'}`, `Content-Length: ${body.length}`]
        : []),
      '',
      '',
    ].join('\r\n');
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const code = /"code":"(\w+)"/.exec(text)?.[1];
      resolve(status ? { status, code } : { status: 0, error: error ?? 'no answer' });
    };
    socket.setTimeout(30_000, () => finish('timeout'));
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    // Writing a body the server refused early may fail; the answer already read still counts.
    socket.on('error', (e) => finish((e as NodeJS.ErrnoException).code ?? e.message));
    socket.write(Buffer.from(head, 'latin1'));
    // No half-close: Node's server drops a request whose client ended its side before the answer.
    if (body) socket.write(body);
  });
}

describe('bad input never gives a 5xx', () => {
  let s: TestServer;
  let ctx: Ctx;
  /** The server's log lines (warn and above): a client's mistake must not be logged as an error with a stack. */
  const log: string[] = [];
  before(async () => {
    const logStream = new Writable({
      write(chunk, _enc, done) {
        log.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    s = await startTestServer({ logStream });
    const org = await createOrganisation(s);
    const staff = (await createPlatformStaff(s)).token!;
    ctx = { s, org, staff };
  });
  after(() => s.close());

  test('every route: NUL, lone surrogates, wrong types, huge and deeply nested values in body, query and path', async () => {
    const port = Number(new URL(s.url).port);
    const failures: string[] = [];
    const missing: string[] = [];
    let requests = 0;
    for (const r of routeRegistry) {
      const name = `${r.method} ${r.url}`;
      const base = await baseCall(ctx, r);
      if (!base) {
        missing.push(name);
        continue;
      }
      const send = async (
        what: string,
        target: string,
        body?: string | Uint8Array,
        contentType?: string,
        mustRefuse = false,
      ) => {
        requests++;
        const res = await rawRequest(port, r.method, target, { token: base.token, body, contentType });
        if (res.status >= 500 || res.status === 0)
          failures.push(`${name} ${what}: ${res.status || res.error} ${res.code ?? ''}`.trim());
        else if (mustRefuse && res.status < 400) failures.push(`${name} ${what}: accepted (${res.status})`);
        // Every answer of the API is the envelope, save a raw route's success and Node's own answer to a request
        // line it cannot parse (raw bytes).
        else if (!res.code && !(r.raw && res.status < 400) && !/raw (NUL|lone-surrogate) byte/.test(what))
          failures.push(`${name} ${what}: ${res.status} without the {code, entity, error} envelope`);
      };
      const [pathname, search = ''] = base.path.split('?');
      const baseBody = (base.body && !(base.body instanceof Uint8Array) ? base.body : undefined) as
        | Record<string, unknown>
        | undefined;
      const fresh = (fuzzed: string) => (baseBody && base.fresh ? base.fresh(baseBody, fuzzed) : baseBody);

      // Body fields, nested ones too.
      if (r.method !== 'GET') {
        const paths = new Map<string, string[]>();
        for (const k of schemaKeys(r.body)) paths.set(k, [k]);
        for (const p of valuePaths(baseBody)) paths.set(p.join('.'), p);
        for (const [key, path] of paths) {
          for (const [i, [label, raw]] of FIELD_VALUES.entries()) {
            const body = bodyWith(fresh(key) ?? {}, path, raw);
            await send(`body ${key} = ${label}`, base.path, body, undefined, i < 5 && !base.sanitises);
          }
        }
        for (const [label, make] of BODY_VALUES)
          await send(`body = ${label}`, base.path, make(fresh('') ?? {}));
      }
      const validBody =
        base.body instanceof Uint8Array ? base.body : baseBody ? JSON.stringify(fresh('')) : undefined;
      const validType = base.headers?.['content-type'];

      // Query parameters (those the route reads, and one it does not).
      const queryKeys = schemaKeys(r.query);
      for (const key of [...queryKeys, '%00']) {
        for (const [i, [label, make]] of QUERY_VALUES.entries()) {
          const query = [search, make(key)].filter(Boolean).join('&');
          const read = i < 2 && queryKeys.includes(key);
          await send(`query ${key} = ${label}`, `${pathname}?${query}`, validBody, validType, read);
        }
      }

      // Path parameters, one at a time, the others kept real.
      const template = r.url.split('/');
      const actual = pathname.split('/');
      for (const [i, segment] of template.entries()) {
        if (!segment.startsWith(':')) continue;
        for (const [label, raw] of PATH_VALUES) {
          const target = actual.map((a, j) => (j === i ? raw : a)).join('/') + (search ? `?${search}` : '');
          await send(`path ${segment} = ${label}`, target, validBody, validType);
        }
      }
    }
    assert.deepEqual(missing, [], 'every route needs a base call (route-fixtures.ts or extraFixtures here)');
    const logged = log.filter((line) => /unhandled error|"stack"/.test(line));
    assert.deepEqual(
      logged.map((line) => line.slice(0, 300)),
      [],
      'client mistakes are not logged as server errors',
    );
    const routes = new Set(failures.map((f) => f.split(' ').slice(0, 2).join(' ')));
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${requests} bad-input requests failed (5xx, no answer, no envelope, or a form accepting NUL) on ${routes.size} route(s):\n${failures.join('\n')}`,
    );
  });
});
