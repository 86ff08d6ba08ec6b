import { MONITORING_COLUMNS, MONITORING_VIEWS, PLAN_OPTIONS } from '@smartconnect/contracts';
import { type FakeMeta, startFakeMeta } from './fakes/meta.ts';
import { type FakePushService, startFakePushService } from './fakes/web-push-service.ts';
import { type FakeYooKassa, startFakeYooKassa } from './fakes/yookassa.ts';
import type { Call, TestOrg, TestServer } from './helpers.ts';

/**
 * A valid call of each route on real objects of one organisation, made by its admin through the API.
 * The authorization matrix sends these as a user holding only the route's right (it must succeed) and the
 * isolation walk sends them as another organisation's admin (it must be 404). A test fails when a route of
 * the registry has no fixture here, so every new route gets both checks.
 */
export type FixtureCall = { path: string; body?: unknown; headers?: Record<string, string> };
/** `callerId`: the user who will send the call, where the object must be one they can see (their team's chat). */
export type Fixture = (org: TestOrg, s: TestServer, callerId?: string) => Promise<FixtureCall>;

let n = 0;
const uniq = (p: string) => `${p} ${Date.now().toString(36)}${(n++).toString(36)}`;

function ok(res: Call, what: string) {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.entity;
}

/** The smallest JPEG header file-type recognises, padded to a few KB. */
export function jpeg(size = 4_000): Uint8Array {
  const buf = new Uint8Array(size);
  buf.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
  buf[size - 2] = 0xff;
  buf[size - 1] = 0xd9;
  return buf;
}

/** A custom role with no rights: anyone who manages accounts may hand it out. */
const emptyRole = async (org: TestOrg) =>
  ok(await org.admin.api.post('/api/roles', { name: uniq('Empty'), description: 'none', rights: [] }), 'role')
    .id as string;
async function team(org: TestOrg, memberIds: string[] = []) {
  const body = { name: uniq('Team'), description: 'Fixture', memberIds };
  return ok(await org.admin.api.post('/api/teams', body), 'team').id as string;
}
async function user(org: TestOrg) {
  const roleId = await emptyRole(org);
  const email = `${uniq('u').replace(/\W/g, '')}@fixture.test`;
  const body = { name: 'Fixture User', email, roleId, password: 'Passw0rd!', repeatPassword: 'Passw0rd!' };
  return ok(await org.admin.api.post('/api/users', body), 'user').id as string;
}
async function channel(org: TestOrg, memberIds: string[] = []) {
  const body = {
    type: 'api',
    name: uniq('API'),
    teamId: await team(org, memberIds),
    webhookUrl: 'http://127.0.0.1:9/x',
  };
  return ok(await org.admin.api.post('/api/channels', body), 'channel') as { id: string; inboundKey: string };
}
/** An organisation API key made by its admin. */
const apiKey = async (org: TestOrg) =>
  ok(
    await org.admin.api.post('/api/integrations/api-keys', { name: uniq('Key'), scopes: ['chats:read'] }),
    'api key',
  ) as { id: string; key: string };
/** A routing rule of its own channel (so its conditions are unique in the organisation). */
const routingRule = async (org: TestOrg) => {
  const body = {
    name: uniq('Rule'),
    conditions: { clients: 'new', channelIds: [(await channel(org)).id] },
    action: { type: 'last_operator' },
  };
  return ok(await org.admin.api.post('/api/routing-rules', body), 'routing rule').id as string;
};
/** A chat bot whose draft can be published: one root node that replies and closes the chat. */
const chatBot = async (org: TestOrg) => {
  const bot = ok(
    await org.admin.api.post('/api/chat-bots', { name: uniq('Bot'), defaultMessage: 'Sorry?' }),
    'chat bot',
  );
  const node = { id: 'start', root: true, position: { x: 0, y: 0 }, reply: { text: 'Hello' } };
  const draft = { nodes: [{ ...node, actions: [{ id: 'end', kind: 'final', type: 'close' }] }] };
  ok(await org.admin.api.patch(`/api/chat-bots/${bot.id}`, { draft }), 'chat bot draft');
  return bot.id as string;
};
/**
 * A request category; with `callerId`, available to a team of theirs only, so a holder of just
 * AUTHORITY_CHAT_SESSION_CATEGORY may change it (not 'category modify denied').
 */
const category = async (org: TestOrg, callerId?: string, parentId?: string) =>
  ok(
    await org.admin.api.post('/api/categories', {
      name: uniq('Category'),
      parentId,
      teamIds: callerId ? [await team(org, [callerId])] : [],
    }),
    'category',
  ).id as string;

async function templateCategory(org: TestOrg) {
  const body = { name: uniq('Templates'), teamIds: [await team(org)] };
  return ok(await org.admin.api.post('/api/template-categories', body), 'template category').id as string;
}
async function template(org: TestOrg) {
  const body = { text: 'Hello {client_name}', categoryId: await templateCategory(org) };
  return ok(await org.admin.api.post('/api/templates', body), 'template').id as string;
}
/** A mailing of its own channel: a draft, or scheduled far ahead (nothing is sent), or that paused. */
async function mailing(org: TestOrg, state: 'draft' | 'scheduled' | 'paused' = 'draft') {
  const body = {
    name: uniq('Mailing'),
    channelId: (await channel(org)).id,
    marketingType: 'service',
    text: 'Your order is ready',
    scheduledAt: state === 'draft' ? null : new Date(Date.now() + 30 * 86_400_000).toISOString(),
  };
  const id = ok(await org.admin.api.post('/api/mailings', body), 'mailing').id as string;
  if (state !== 'draft') ok(await org.admin.api.post(`/api/mailings/${id}/start`), 'mailing start');
  if (state === 'paused') ok(await org.admin.api.post(`/api/mailings/${id}/pause`), 'mailing pause');
  return id;
}
/** An SMS channel's export whose header is not a known one: the import waits for its columns (nothing runs). */
function smsExport(channelId: string) {
  const form = new FormData();
  form.set('channelId', channelId);
  form.set('file', new Blob(['To;What\r\n+79160001122;Hello\r\n']), 'export.csv');
  return form;
}
async function smsChannelOf(org: TestOrg) {
  const body = { type: 'sms', name: uniq('SMS'), teamId: await team(org), service: 'other' };
  return ok(await org.admin.api.post('/api/channels', body), 'sms channel').id as string;
}
async function smsImport(org: TestOrg) {
  return ok(await org.admin.api.post('/api/sms-imports', smsExport(await smsChannelOf(org))), 'sms import')
    .id as string;
}
async function kbCategory(org: TestOrg) {
  const body = { name: uniq('Knowledge'), teamIds: [await team(org)] };
  return ok(await org.admin.api.post('/api/kb/categories', body), 'kb category').id as string;
}
async function kbArticle(org: TestOrg) {
  const body = { title: 'Refunds', body: 'Money back', categoryId: await kbCategory(org), public: true };
  return ok(await org.admin.api.post('/api/kb/articles', body), 'kb article') as {
    id: string;
    publicPath: string;
  };
}

/**
 * A chat in Waiting with one customer message, in a team of `memberIds`; `taken` puts it in the admin's work with
 * a reply of theirs.
 */
async function chat(org: TestOrg, s: TestServer, taken = false, memberIds: string[] = []) {
  const ch = await channel(org, memberIds);
  const res = await s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, {
    externalMessageId: uniq('m'),
    client: { externalId: uniq('c'), name: 'Fixture Client' },
    text: 'Hello',
  });
  const { chatId } = ok(res, 'inbound') as { chatId: string };
  const chatRow = ok(await org.admin.api.get(`/api/chats/${chatId}`), 'chat') as { client: { id: string } };
  let messageId = '';
  if (taken) {
    ok(await org.admin.api.post(`/api/chats/${chatId}/take`), 'take');
    messageId = ok(await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Hi' }), 'send').id;
  }
  return { chatId, clientId: chatRow.client.id, messageId };
}

const clientStatus = async (org: TestOrg) =>
  ok(
    await org.admin.api.post('/api/client-statuses', { name: uniq('St').slice(0, 32), color: 'red' }),
    'status',
  ).id as string;
const company = async (org: TestOrg) =>
  ok(await org.admin.api.post('/api/companies', { name: uniq('Company') }), 'company').id as string;

/** Points the server at a fake of Meta (once per server) for the routes of logging in with it. */
const metaFakes = new WeakMap<TestServer, Promise<FakeMeta>>();
function metaFake(s: TestServer): Promise<FakeMeta> {
  let fake = metaFakes.get(s);
  if (!fake) {
    fake = startFakeMeta({ unref: true }).then((m) => {
      Object.assign(s.app.config.env, {
        META_GRAPH_BASE_URL: m.baseUrl,
        META_OAUTH_BASE_URL: m.baseUrl,
        META_APP_ID: m.appId,
        META_APP_SECRET: m.appSecret,
        META_VERIFY_TOKEN: 'fixture-verify-token',
      });
      return m;
    });
    metaFakes.set(s, fake);
  }
  return fake;
}
/** A grant of the organisation: the admin logs in with Meta (start, the fake's dialog, our callback). */
async function metaGrant(org: TestOrg, s: TestServer): Promise<string> {
  await metaFake(s);
  const start = ok(await org.admin.api.get('/api/channels/oauth/start?type=facebook'), 'oauth start');
  const atMeta = await fetch(start.url, { redirect: 'manual' });
  const back = new URL(atMeta.headers.get('location') ?? '');
  const ours = await fetch(`${s.url}${back.pathname}${back.search}`, { redirect: 'manual' });
  return new URL(ours.headers.get('location') ?? '', 'http://x').searchParams.get('grant') ?? '';
}

const yooKassaFakes = new WeakMap<TestServer, Promise<FakeYooKassa>>();
/** A fake YooKassa shop for the server (its env set as a deployment would), shared by its fixtures. */
async function yooKassa(s: TestServer): Promise<FakeYooKassa> {
  let fake = yooKassaFakes.get(s);
  if (!fake) {
    fake = startFakeYooKassa({ unref: true });
    yooKassaFakes.set(s, fake);
  }
  const y = await fake;
  Object.assign(s.app.config.env, y.env);
  return y;
}
/**
 * A pending top-up on the built-in demo payment page (the provider of the seeded Demo organisation while no YooKassa
 * shop is configured: the fake's env is taken away first, and the organisation carries the seed's flag), written as
 * a top-up would; answers the demo payment's id.
 */
async function demoTopUp(org: TestOrg, s: TestServer) {
  const env = s.app.config.env as Record<string, string | undefined>;
  delete env.YOOKASSA_SHOP_ID;
  delete env.YOOKASSA_SECRET_KEY;
  await s.db.query('update organisations set demo_payment_page = true where id = $1', [org.id]);
  const [demo] = await s.db.query<{ id: string }>(
    `insert into demo_payments (organisation_id, idempotence_key, amount, currency, return_url)
     values ($1, $2, 500, 'RUB', 'http://localhost:3000/admin/finance/balance') returning id`,
    [org.id, uniq('demo')],
  );
  await s.db.query(
    `insert into payments (organisation_id, kind, status, amount, notes, provider_payment_id)
     values ($1, 'top_up', 'pending', 500, 'Fixture', $2)`,
    [org.id, demo.id],
  );
  return demo.id;
}
/** A free plan with every option and many licences: moving an organisation onto it takes nothing from later calls. */
const fullPlan = async (s: TestServer) =>
  (
    await s.db.query<{ id: string }>(
      'insert into plans (name, price, operator_licences, options) values ($1, 0, 1000, $2) returning id',
      [uniq('Full'), [...PLAN_OPTIONS]],
    )
  )[0].id;
/** A settled top-up of the organisation with its invoice (written as the webhook would). */
async function settledPayment(org: TestOrg, s: TestServer) {
  const [p] = await s.db.query<{ id: string }>(
    `insert into payments (organisation_id, kind, status, amount, notes, settled_at)
     values ($1, 'top_up', 'succeeded', 500, 'Fixture', now()) returning id`,
    [org.id],
  );
  const [d] = await s.db.query<{ id: string }>(
    `insert into billing_documents (organisation_id, payment_id, kind, number, sum, vat, paid, release_date)
     values ($1, $2, 'invoice', $3, 500, 83.33, true, current_date) returning id`,
    [org.id, p.id, uniq('FIX').replace(/\W/g, '')],
  );
  return { paymentId: p.id, documentId: d.id };
}
/** An event webhook endpoint (issue 34) at a closed local port, and one of its deliveries (a failed test event). */
async function webhookEndpoint(org: TestOrg) {
  const body = { url: 'http://127.0.0.1:9/hook', description: 'Fixture', eventTypes: ['chat.created'] };
  return ok(await org.admin.api.post('/api/integrations/webhooks', body), 'webhook endpoint').id as string;
}
async function webhookDelivery(org: TestOrg) {
  const id = await webhookEndpoint(org);
  const delivery = ok(await org.admin.api.post(`/api/integrations/webhooks/${id}/test`), 'webhook test');
  return { id, deliveryId: delivery.id as string };
}

let pushFake: Promise<FakePushService> | undefined;
/** A browser of the caller subscribed to web push at a fake push service that takes every notification. */
async function pushSubscription(org: TestOrg) {
  pushFake ??= startFakePushService({ unref: true });
  const b = (await pushFake).subscription();
  const body = { endpoint: b.endpoint, keys: b.keys };
  return ok(await org.admin.api.post('/api/push/subscriptions', body), 'push subscription').id as string;
}

export const fixtures: Record<string, Fixture> = {
  // web push for operators (issue 34): the caller's own browsers and choices
  'GET /api/push/key': async () => ({ path: '/api/push/key' }),
  'GET /api/push/settings': async () => ({ path: '/api/push/settings' }),
  'PUT /api/push/settings': async () => ({
    path: '/api/push/settings',
    body: { newChats: true, newMessages: false },
  }),
  'POST /api/push/subscriptions': async () => {
    pushFake ??= startFakePushService({ unref: true });
    const b = (await pushFake).subscription();
    return { path: '/api/push/subscriptions', body: { endpoint: b.endpoint, keys: b.keys } };
  },
  'DELETE /api/push/subscriptions/:id': async (org) => ({
    path: `/api/push/subscriptions/${await pushSubscription(org)}`,
  }),
  'POST /api/push/test': async (org) => {
    await pushSubscription(org);
    return { path: '/api/push/test' };
  },
  // observability (issue 20)
  'GET /api/telemetry/vitals': async () => ({ path: '/api/telemetry/vitals' }),
  // landing requests (issue 19)
  'GET /api/landing-requests': async () => ({ path: '/api/landing-requests' }),
  // users
  'GET /api/users/:id': async (org) => ({ path: `/api/users/${await user(org)}` }),
  'POST /api/users': async (org) => ({
    path: '/api/users',
    body: {
      name: 'New Person',
      email: `${uniq('new').replace(/\W/g, '')}@fixture.test`,
      roleId: await emptyRole(org),
      password: 'Passw0rd!',
      repeatPassword: 'Passw0rd!',
    },
  }),
  'PATCH /api/users/:id': async (org) => ({
    path: `/api/users/${await user(org)}`,
    body: { name: 'Renamed' },
  }),
  'POST /api/users/:id/deactivate': async (org) => ({ path: `/api/users/${await user(org)}/deactivate` }),
  'POST /api/users/:id/activate': async (org) => ({ path: `/api/users/${await user(org)}/activate` }),
  'PUT /api/users/:id/teams': async (org) => ({
    path: `/api/users/${await user(org)}/teams`,
    body: { teamIds: [await team(org)] },
  }),
  'PUT /api/users/:id/photo': async (org) => ({
    path: `/api/users/${await user(org)}/photo`,
    body: jpeg(),
    headers: { 'content-type': 'image/jpeg' },
  }),
  'DELETE /api/users/:id/photo': async (org) => ({ path: `/api/users/${await user(org)}/photo` }),
  'POST /api/files': async () => {
    const body = new FormData();
    body.append('file', new Blob(['Order #42\n'], { type: 'text/plain' }), 'note.txt');
    return { path: '/api/files', body };
  },
  // teams
  'GET /api/teams/:id': async (org) => ({ path: `/api/teams/${await team(org)}` }),
  'POST /api/teams': async () => ({ path: '/api/teams', body: { name: uniq('Team'), description: 'New' } }),
  'PATCH /api/teams/:id': async (org) => ({
    path: `/api/teams/${await team(org)}`,
    body: { name: uniq('Team') },
  }),
  'DELETE /api/teams/:id': async (org) => ({ path: `/api/teams/${await team(org)}` }),
  // roles
  'GET /api/roles/:id': async (org) => ({ path: `/api/roles/${await emptyRole(org)}` }),
  'POST /api/roles': async () => ({
    path: '/api/roles',
    body: { name: uniq('Role'), description: 'd', rights: [] },
  }),
  'PATCH /api/roles/:id': async (org) => ({
    path: `/api/roles/${await emptyRole(org)}`,
    body: { description: 'Changed' },
  }),
  'DELETE /api/roles/:id': async (org) => ({ path: `/api/roles/${await emptyRole(org)}` }),
  // channels
  'GET /api/channels': async () => ({ path: '/api/channels' }),
  'GET /api/channels/problems': async () => ({ path: '/api/channels/problems' }),
  'POST /api/channels/:id/problems/dismiss': async (org) => ({
    path: `/api/channels/${(await channel(org)).id}/problems/dismiss`,
  }),
  'GET /api/channels/:id': async (org) => ({ path: `/api/channels/${(await channel(org)).id}` }),
  'POST /api/channels': async (org) => ({
    path: '/api/channels',
    body: { type: 'api', name: uniq('API'), teamId: await team(org), webhookUrl: 'http://127.0.0.1:9/x' },
  }),
  'PATCH /api/channels/:id': async (org) => ({
    path: `/api/channels/${(await channel(org)).id}`,
    body: { name: uniq('API') },
  }),
  'DELETE /api/channels/:id': async (org) => ({ path: `/api/channels/${(await channel(org)).id}` }),
  // auto-replies
  'GET /api/channels/:id/auto-replies': async (org) => ({
    path: `/api/channels/${(await channel(org)).id}/auto-replies`,
  }),
  'PUT /api/channels/:id/auto-replies': async (org) => ({
    path: `/api/channels/${(await channel(org)).id}/auto-replies`,
    body: {
      online: { enabled: true, text: 'An operator will answer shortly' },
      offline: { enabled: false, text: '' },
      rating: { enabled: false, text: '' },
      holding: { enabled: true, text: 'Still with you', waitMinutes: 2 },
    },
  }),
  // chats
  'GET /api/chats/:id': async (org, s) => ({ path: `/api/chats/${(await chat(org, s)).chatId}` }),
  'GET /api/chats/:id/messages': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s)).chatId}/messages`,
  }),
  'GET /api/chats/:id/history': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s)).chatId}/history`,
  }),
  'GET /api/chats/:id/ratings': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s)).chatId}/ratings`,
  }),
  'GET /api/chats/:id/rating-request': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s)).chatId}/rating-request`,
  }),
  'POST /api/chats/:id/rating-request': async (org, s) => {
    const { chatId } = await chat(org, s, true);
    const channelId = ok(await org.admin.api.get(`/api/chats/${chatId}`), 'chat').channel.id as string;
    const assessment = { enabled: true, beforeEnd: true, text: 'Rate us' };
    ok(await org.admin.api.patch(`/api/channels/${channelId}`, { assessment }), 'assessment');
    return { path: `/api/chats/${chatId}/rating-request` };
  },
  'POST /api/chats/:id/typing': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s, true)).chatId}/typing`,
  }),
  'POST /api/chats/:id/messages': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s, true)).chatId}/messages`,
    body: { text: 'Reply' },
  }),
  'PATCH /api/chats/:id/messages/:messageId': async (org, s) => {
    const c = await chat(org, s, true);
    return { path: `/api/chats/${c.chatId}/messages/${c.messageId}`, body: { text: 'Edited' } };
  },
  'POST /api/chats/:id/take': async (org, s) => ({ path: `/api/chats/${(await chat(org, s)).chatId}/take` }),
  'POST /api/chats/:id/takeover': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s)).chatId}/takeover`,
  }),
  'POST /api/chats/:id/transfer': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s, true)).chatId}/transfer`,
    body: { teamId: await team(org) },
  }),
  'POST /api/chats/:id/close': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s, true)).chatId}/close`,
    body: { categoryId: await category(org) },
  }),
  'PUT /api/chats/:id/category': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s, true)).chatId}/category`,
    body: { categoryId: await category(org) },
  }),
  'POST /api/chats/:id/read': async (org, s) => ({ path: `/api/chats/${(await chat(org, s)).chatId}/read` }),
  // categories
  'GET /api/categories/:id': async (org) => ({ path: `/api/categories/${await category(org)}` }),
  'POST /api/categories': async (org, _s, callerId) => ({
    path: '/api/categories',
    body: {
      name: uniq('Theme'),
      parentId: await category(org, callerId),
      teamIds: [],
    },
  }),
  'PATCH /api/categories/:id': async (org, _s, callerId) => ({
    path: `/api/categories/${await category(org, callerId)}`,
    body: { name: uniq('Category') },
  }),
  'DELETE /api/categories/:id': async (org, _s, callerId) => ({
    path: `/api/categories/${await category(org, callerId)}`,
  }),
  // routing rules
  'GET /api/routing-rules': async () => ({ path: '/api/routing-rules' }),
  'POST /api/routing-rules': async (org) => ({
    path: '/api/routing-rules',
    body: {
      name: uniq('Rule'),
      conditions: { clients: 'repeated', channelIds: [(await channel(org)).id] },
      action: { type: 'team', teamId: await team(org) },
    },
  }),
  'PATCH /api/routing-rules/:id': async (org) => ({
    path: `/api/routing-rules/${await routingRule(org)}`,
    body: { name: uniq('Rule'), enabled: false },
  }),
  'DELETE /api/routing-rules/:id': async (org) => ({ path: `/api/routing-rules/${await routingRule(org)}` }),
  'PUT /api/routing-rules/order': async (org) => {
    await routingRule(org);
    const rules = ok(await org.admin.api.get('/api/routing-rules'), 'rules').items as {
      id: string;
      isDefault: boolean;
    }[];
    return {
      path: '/api/routing-rules/order',
      body: {
        ids: rules
          .filter((r) => !r.isDefault)
          .map((r) => r.id)
          .reverse(),
      },
    };
  },
  // templates
  'GET /api/template-categories': async () => ({ path: '/api/template-categories' }),
  'POST /api/template-categories': async (org) => ({
    path: '/api/template-categories',
    body: { name: uniq('Templates'), teamIds: [await team(org)] },
  }),
  'PATCH /api/template-categories/:id': async (org) => ({
    path: `/api/template-categories/${await templateCategory(org)}`,
    body: { name: uniq('Templates') },
  }),
  'DELETE /api/template-categories/:id': async (org) => ({
    path: `/api/template-categories/${await templateCategory(org)}`,
  }),
  'GET /api/templates': async () => ({ path: '/api/templates?search=hello' }),
  'POST /api/templates': async (org) => ({
    path: '/api/templates',
    body: { text: 'Hello {client_name}', categoryId: await templateCategory(org) },
  }),
  'PATCH /api/templates/:id': async (org) => ({
    path: `/api/templates/${await template(org)}`,
    body: { text: 'Good morning, {client_name}' },
  }),
  'DELETE /api/templates/:id': async (org) => ({ path: `/api/templates/${await template(org)}` }),
  'GET /api/whatsapp-templates': async () => ({ path: '/api/whatsapp-templates' }),
  // mailings (issue 33)
  'GET /api/mailings': async () => ({ path: '/api/mailings' }),
  'POST /api/mailings': async (org) => ({
    path: '/api/mailings',
    body: {
      name: uniq('Mailing'),
      channelId: (await channel(org)).id,
      marketingType: 'advertising',
      text: 'Sale',
    },
  }),
  'POST /api/mailings/audience-count': async (org) => ({
    path: '/api/mailings/audience-count',
    body: { channelId: (await channel(org)).id, audience: { tags: ['vip'] } },
  }),
  'GET /api/mailings/:id': async (org) => ({ path: `/api/mailings/${await mailing(org)}` }),
  'PATCH /api/mailings/:id': async (org) => ({
    path: `/api/mailings/${await mailing(org)}`,
    body: { name: uniq('Mailing'), sendWindow: { from: '09:00', to: '21:00' } },
  }),
  'DELETE /api/mailings/:id': async (org) => ({ path: `/api/mailings/${await mailing(org)}` }),
  'GET /api/reports/mailings': async () => ({ path: '/api/reports/mailings?period=last30' }),
  'GET /api/mailings/:id/export': async (org) => ({
    path: `/api/mailings/${await mailing(org)}/export?format=xlsx`,
  }),
  'POST /api/mailings/:id/start': async (org) => ({ path: `/api/mailings/${await mailing(org)}/start` }),
  'POST /api/mailings/:id/pause': async (org) => ({
    path: `/api/mailings/${await mailing(org, 'scheduled')}/pause`,
  }),
  'POST /api/mailings/:id/resume': async (org) => ({
    path: `/api/mailings/${await mailing(org, 'paused')}/resume`,
  }),
  'POST /api/mailings/:id/cancel': async (org) => ({
    path: `/api/mailings/${await mailing(org, 'scheduled')}/cancel`,
  }),
  'GET /api/mailing-settings': async () => ({ path: '/api/mailing-settings' }),
  'GET /api/mailing-templates': async (org) => ({
    path: `/api/mailing-templates?channelId=${(await channel(org)).id}`,
  }),
  'PUT /api/mailing-settings': async () => ({
    path: '/api/mailing-settings',
    body: { optOutWords: ['STOP', 'ХВАТИТ'] },
  }),
  // SMS-system import (issue 33)
  'GET /api/sms-imports': async () => ({ path: '/api/sms-imports' }),
  'POST /api/sms-imports': async (org) => ({
    path: '/api/sms-imports',
    body: smsExport(await smsChannelOf(org)),
  }),
  'GET /api/sms-imports/:id': async (org) => ({ path: `/api/sms-imports/${await smsImport(org)}` }),
  'POST /api/sms-imports/:id/start': async (org) => ({
    path: `/api/sms-imports/${await smsImport(org)}/start`,
    body: { mapping: { phone: 0, text: 1 } },
  }),
  // event webhooks (issue 34)
  'GET /api/integrations/webhooks': async () => ({ path: '/api/integrations/webhooks' }),
  'POST /api/integrations/webhooks': async () => ({
    path: '/api/integrations/webhooks',
    body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['chat.created', 'message.created'] },
  }),
  'GET /api/integrations/webhooks/:id': async (org) => ({
    path: `/api/integrations/webhooks/${await webhookEndpoint(org)}`,
  }),
  'PATCH /api/integrations/webhooks/:id': async (org) => ({
    path: `/api/integrations/webhooks/${await webhookEndpoint(org)}`,
    body: { description: 'Changed', enabled: false },
  }),
  'DELETE /api/integrations/webhooks/:id': async (org) => ({
    path: `/api/integrations/webhooks/${await webhookEndpoint(org)}`,
  }),
  'POST /api/integrations/webhooks/:id/rotate-secret': async (org) => ({
    path: `/api/integrations/webhooks/${await webhookEndpoint(org)}/rotate-secret`,
  }),
  'POST /api/integrations/webhooks/:id/test': async (org) => ({
    path: `/api/integrations/webhooks/${await webhookEndpoint(org)}/test`,
  }),
  'GET /api/integrations/webhooks/:id/deliveries': async (org) => ({
    path: `/api/integrations/webhooks/${await webhookEndpoint(org)}/deliveries?limit=10`,
  }),
  'POST /api/integrations/webhooks/:id/deliveries/:deliveryId/redeliver': async (org) => {
    const { id, deliveryId } = await webhookDelivery(org);
    return { path: `/api/integrations/webhooks/${id}/deliveries/${deliveryId}/redeliver` };
  },
  // knowledge base (issue 36)
  'GET /api/kb/categories': async () => ({ path: '/api/kb/categories' }),
  'POST /api/kb/categories': async (org) => ({
    path: '/api/kb/categories',
    body: { name: uniq('Knowledge'), teamIds: [await team(org)] },
  }),
  'PATCH /api/kb/categories/:id': async (org) => ({
    path: `/api/kb/categories/${await kbCategory(org)}`,
    body: { name: uniq('Knowledge') },
  }),
  'DELETE /api/kb/categories/:id': async (org) => ({ path: `/api/kb/categories/${await kbCategory(org)}` }),
  'GET /api/kb/articles': async () => ({ path: '/api/kb/articles' }),
  'GET /api/kb/search': async () => ({ path: '/api/kb/search?q=refund' }),
  'GET /api/kb/articles/:id': async (org) => ({ path: `/api/kb/articles/${(await kbArticle(org)).id}` }),
  'POST /api/kb/articles': async (org) => ({
    path: '/api/kb/articles',
    body: { title: 'Refunds', body: 'Money back', categoryId: await kbCategory(org) },
  }),
  'PATCH /api/kb/articles/:id': async (org) => ({
    path: `/api/kb/articles/${(await kbArticle(org)).id}`,
    body: { title: 'Refund policy' },
  }),
  'DELETE /api/kb/articles/:id': async (org) => ({ path: `/api/kb/articles/${(await kbArticle(org)).id}` }),
  // messengers (WhatsApp templates of a chat's channel; an API channel's chat has none)
  'GET /api/chats/:id/provider-templates': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s)).chatId}/provider-templates`,
  }),
  'POST /api/chats/:id/template-messages': async (org, s) => ({
    path: `/api/chats/${(await chat(org, s, true)).chatId}/template-messages`,
    body: { templateId: '1', variables: [] },
  }),
  // the caller's organisation (its administrator, issue 17)
  'PATCH /api/organisation': async () => ({ path: '/api/organisation', body: { timeZone: 'Europe/Moscow' } }),
  'GET /api/organisation/first-run': async () => ({ path: '/api/organisation/first-run' }),
  // organisations (platform staff)
  'GET /api/organisations': async () => ({ path: '/api/organisations' }),
  'PATCH /api/organisations/:id': async (org) => ({
    path: `/api/organisations/${org.id}`,
    body: { operatorLicences: 50 },
  }),
  // clients
  'GET /api/clients/:id': async (org, s) => ({ path: `/api/clients/${(await chat(org, s)).clientId}` }),
  'GET /api/clients/:id/chats': async (org, s) => ({
    path: `/api/clients/${(await chat(org, s)).clientId}/chats`,
  }),
  'GET /api/clients/:id/chats/:chatId/messages': async (org, s) => {
    const c = await chat(org, s);
    return { path: `/api/clients/${c.clientId}/chats/${c.chatId}/messages` };
  },
  'GET /api/clients/:id/files': async (org, s) => ({
    path: `/api/clients/${(await chat(org, s)).clientId}/files`,
  }),
  // A client profile is edited by someone who sees one of the client's chats: here their team's Waiting chat.
  'PATCH /api/clients/:id': async (org, s, callerId) => ({
    path: `/api/clients/${(await chat(org, s, false, callerId ? [callerId] : [])).clientId}`,
    body: { name: 'Renamed Client' },
  }),
  // client profiles (issue 14): comments, statuses, companies, blacklist, merge
  'POST /api/clients/:id/comments': async (org, s, callerId) => ({
    path: `/api/clients/${(await chat(org, s, false, callerId ? [callerId] : [])).clientId}/comments`,
    body: { text: 'Called back' },
  }),
  'POST /api/client-statuses': async () => ({
    path: '/api/client-statuses',
    body: { name: uniq('St').slice(0, 32), color: 'green' },
  }),
  'PATCH /api/client-statuses/:id': async (org) => ({
    path: `/api/client-statuses/${await clientStatus(org)}`,
    body: { name: uniq('St').slice(0, 32), color: 'blue' },
  }),
  'DELETE /api/client-statuses/:id': async (org) => ({
    path: `/api/client-statuses/${await clientStatus(org)}`,
  }),
  'POST /api/companies': async () => ({ path: '/api/companies', body: { name: uniq('Company') } }),
  'PATCH /api/companies/:id': async (org) => ({
    path: `/api/companies/${await company(org)}`,
    body: { name: uniq('Company') },
  }),
  'DELETE /api/companies/:id': async (org) => ({ path: `/api/companies/${await company(org)}` }),
  'POST /api/blacklist': async (org, s, callerId) => ({
    path: '/api/blacklist',
    body: { clientId: (await chat(org, s, false, callerId ? [callerId] : [])).clientId },
  }),
  'DELETE /api/blacklist/:clientId': async (org, s, callerId) => {
    const { clientId } = await chat(org, s, false, callerId ? [callerId] : []);
    ok(await org.admin.api.post('/api/blacklist', { clientId }), 'block');
    return { path: `/api/blacklist/${clientId}` };
  },
  'GET /api/clients/merge/suggestions': async () => ({ path: '/api/clients/merge/suggestions' }),
  'POST /api/clients/merge/preview': async (org, s, callerId) => ({
    path: '/api/clients/merge/preview',
    body: {
      targetId: (await chat(org, s, false, callerId ? [callerId] : [])).clientId,
      sourceIds: [(await chat(org, s, false, callerId ? [callerId] : [])).clientId],
    },
  }),
  'POST /api/clients/merge': async (org, s, callerId) => ({
    path: '/api/clients/merge',
    body: {
      targetId: (await chat(org, s, false, callerId ? [callerId] : [])).clientId,
      sourceIds: [(await chat(org, s, false, callerId ? [callerId] : [])).clientId],
    },
  }),
  // Instagram and Facebook: logging in with Meta (a fake of Facebook Login shared by the process).
  'GET /api/channels/oauth/start': async (_org, s) => {
    await metaFake(s);
    return { path: '/api/channels/oauth/start?type=facebook' };
  },
  'POST /api/channels/oauth/accounts': async (org, s) => ({
    path: '/api/channels/oauth/accounts',
    body: { type: 'facebook', grant: await metaGrant(org, s) },
  }),
  // Reports (rollups of the organisation's own traffic).
  'GET /api/reports/dialogs': async () => ({
    path: '/api/reports/dialogs?period=last7&timeZone=Europe/London',
  }),
  'GET /api/reports/own/dialogs': async () => ({ path: '/api/reports/own/dialogs?period=today' }),
  // Monitoring (issue 17): the caller's own live tables and column settings, one route per view.
  ...Object.fromEntries(
    MONITORING_VIEWS.flatMap((view): [string, Fixture][] => [
      [`GET /api/monitoring/${view}`, async () => ({ path: `/api/monitoring/${view}` })],
      [`GET /api/monitoring/settings/${view}`, async () => ({ path: `/api/monitoring/settings/${view}` })],
      [
        `PUT /api/monitoring/settings/${view}`,
        async () => ({
          path: `/api/monitoring/settings/${view}`,
          body: { columns: [{ key: MONITORING_COLUMNS[view][0], visible: true }] },
        }),
      ],
    ]),
  ),
  // Chat bots (the editor's API).
  'GET /api/chat-bots': async () => ({ path: '/api/chat-bots' }),
  'GET /api/chat-bots/published': async () => ({ path: '/api/chat-bots/published' }),
  'POST /api/chat-bots': async () => ({
    path: '/api/chat-bots',
    body: { name: uniq('Bot'), defaultMessage: 'Sorry, I did not understand' },
  }),
  'GET /api/chat-bots/:id': async (org) => ({ path: `/api/chat-bots/${await chatBot(org)}` }),
  'PATCH /api/chat-bots/:id': async (org) => ({
    path: `/api/chat-bots/${await chatBot(org)}`,
    body: { name: uniq('Bot'), description: 'Changed' },
  }),
  'POST /api/chat-bots/:id/publish': async (org) => ({
    path: `/api/chat-bots/${await chatBot(org)}/publish`,
  }),
  'DELETE /api/chat-bots/:id': async (org) => ({ path: `/api/chat-bots/${await chatBot(org)}` }),
  // Reports, the remaining kinds (issue 17).
  'GET /api/reports/summary': async () => ({ path: '/api/reports/summary?period=last7' }),
  'GET /api/reports/summary/export': async () => ({
    path: '/api/reports/summary/export?period=today&format=csv',
  }),
  'GET /api/reports/channels': async () => ({ path: '/api/reports/channels?period=last30' }),
  'GET /api/reports/employees': async () => ({ path: '/api/reports/employees?period=yesterday' }),
  'GET /api/reports/teams': async () => ({ path: '/api/reports/teams?period=today&timeZone=Asia/Tokyo' }),
  'GET /api/reports/time': async () => ({ path: '/api/reports/time?period=today' }),
  'GET /api/reports/categories': async () => ({
    path: '/api/reports/categories?period=last7&includeWithoutCategory=true',
  }),
  // organisations, plans and finance (issue 19)
  'POST /api/organisations': async (_org, s) => {
    const login = uniq('org').replace(/\W/g, '-');
    return {
      path: '/api/organisations',
      body: { login, name: 'Fixture Org', adminEmail: `${login}@fixture.test`, planId: await fullPlan(s) },
    };
  },
  'POST /api/organisations/:id/extend': async (org, s) => {
    await s.db.query('update organisations set paid_until = current_date where id = $1', [org.id]);
    return { path: `/api/organisations/${org.id}/extend` };
  },
  'GET /api/integrations/api-keys': async () => ({ path: '/api/integrations/api-keys' }),
  'POST /api/integrations/api-keys': async () => ({
    path: '/api/integrations/api-keys',
    body: { name: uniq('Key'), scopes: ['chats:read'] },
  }),
  'POST /api/integrations/api-keys/:id/rotate': async (org) => ({
    path: `/api/integrations/api-keys/${(await apiKey(org)).id}/rotate`,
    body: { overlapHours: 1 },
  }),
  'DELETE /api/integrations/api-keys/:id': async (org) => ({
    path: `/api/integrations/api-keys/${(await apiKey(org)).id}`,
  }),
  'GET /api/plans': async () => ({ path: '/api/plans' }),
  'POST /api/plans': async () => ({
    path: '/api/plans',
    body: { name: uniq('Plan'), price: 100, operatorLicences: 3, options: ['OPTION_TEMPLATE'] },
  }),
  'PATCH /api/plans/:id': async (_org, s) => {
    const [p] = await s.db.query<{ id: string }>(
      `insert into plans (name, price, operator_licences) values ($1, 10, 1) returning id`,
      [uniq('Plan')],
    );
    return { path: `/api/plans/${p.id}`, body: { price: 20 } };
  },
  'GET /api/finance': async () => ({ path: '/api/finance' }),
  'GET /api/finance/plans': async () => ({ path: '/api/finance/plans' }),
  'PUT /api/finance/plan': async (org, s) => {
    await s.db.query('update organisations set balance = 1000000 where id = $1', [org.id]);
    return { path: '/api/finance/plan', body: { planId: await fullPlan(s) } };
  },
  'GET /api/finance/payments': async () => ({ path: '/api/finance/payments' }),
  'GET /api/finance/documents': async () => ({ path: '/api/finance/documents' }),
  'GET /api/finance/documents/:id/pdf': async (org, s) => ({
    path: `/api/finance/documents/${(await settledPayment(org, s)).documentId}/pdf`,
  }),
  'POST /api/finance/top-up': async (_org, s) => {
    await yooKassa(s);
    return { path: '/api/finance/top-up', body: { amount: 500 } };
  },
  'GET /api/finance/demo-payments/:id': async (org, s) => ({
    path: `/api/finance/demo-payments/${await demoTopUp(org, s)}`,
  }),
  'POST /api/finance/demo-payments/:id/pay': async (org, s) => ({
    path: `/api/finance/demo-payments/${await demoTopUp(org, s)}/pay`,
  }),
  'POST /api/finance/demo-payments/:id/cancel': async (org, s) => ({
    path: `/api/finance/demo-payments/${await demoTopUp(org, s)}/cancel`,
  }),
  'POST /api/finance/payments/:id/refresh': async (org, s) => ({
    path: `/api/finance/payments/${(await settledPayment(org, s)).paymentId}/refresh`,
  }),
};

/** Sends a fixture's call as the given user. */
export function send(api: TestOrg['admin']['api'], method: string, call: FixtureCall): Promise<Call> {
  const body =
    call.body instanceof Uint8Array
      ? call.body
      : (call.body ?? (method === 'GET' || method === 'DELETE' ? undefined : {}));
  return api.call(method, call.path, body, call.headers);
}
