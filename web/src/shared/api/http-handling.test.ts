import assert from 'node:assert/strict';
import { afterEach, before, mock, test } from 'node:test';

// The §7/§8 HTTP handling, run in Node with the few browser globals it touches stubbed.
const store = new Map<string, string>();
const assigned: string[] = [];
const g = globalThis as Record<string, unknown>;
g.localStorage = {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
  removeItem: (k: string) => void store.delete(k),
};
g.document = { documentElement: {} };
g.window = { location: { assign: (to: string) => assigned.push(to) } };

type Modules = {
  client: typeof import('./client.ts');
  errors: typeof import('./errors.ts');
  connection: typeof import('./connection.ts');
  query: typeof import('../query.ts');
  notifications: typeof import('@mantine/notifications');
};
let m: Modules;
before(async () => {
  m = {
    client: await import('./client.ts'),
    errors: await import('./errors.ts'),
    connection: await import('./connection.ts'),
    query: await import('../query.ts'),
    notifications: await import('@mantine/notifications'),
  };
});

function answer(status: number, body: unknown) {
  g.fetch = async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const fail = (code: string, fields?: Record<string, string>) => ({
  code,
  entity: null,
  error: { code, message: 'server prose', fields },
});

afterEach(() => {
  store.clear();
  assigned.length = 0;
  mock.restoreAll();
});

test('200 resolves with the entity and sends the stored token as a bearer header', async () => {
  store.set('token', 'abc');
  let auth: string | null = null;
  g.fetch = async (_url: string, init: RequestInit) => {
    auth = new Headers(init.headers).get('authorization');
    return new Response(JSON.stringify({ code: 'ok', entity: { id: 1 }, error: null }));
  };
  assert.deepEqual(await m.client.get('/api/x'), { id: 1 });
  assert.equal(auth, 'Bearer abc');
});

test('401 on an authenticated call clears the token and goes to the login page', async () => {
  store.set('token', 'abc');
  answer(401, fail('unauthorizedException'));
  await assert.rejects(m.client.get('/api/auth/user'), (e) => m.errors.isApiError(e) && e.status === 401);
  assert.equal(store.get('token'), undefined);
  assert.deepEqual(assigned, ['/']);
});

test('401 with another code on an authenticated call (a wrong 2FA code) keeps the session', async () => {
  store.set('token', 'abc');
  answer(401, fail('totpInvalidException'));
  await assert.rejects(
    m.client.patch('/api/auth/toggle', { enabled: false, totpCode: '000000' }),
    (e) => m.errors.isApiError(e) && e.code === 'totpInvalidException',
  );
  assert.equal(store.get('token'), 'abc');
  assert.deepEqual(assigned, []);
});

test('401 on a public call (wrong password) keeps the page and reports the code', async () => {
  store.set('token', 'abc');
  answer(401, fail('invalidCredentialsException'));
  await assert.rejects(
    m.client.post('/api/auth/login', {}, { public: true }),
    (e) => m.errors.isApiError(e) && e.code === 'invalidCredentialsException',
  );
  assert.equal(store.get('token'), 'abc');
  assert.deepEqual(assigned, []);
});

test('validation errors carry the field messages', async () => {
  answer(400, fail('validationException', { name: 'Name specified incorrectly' }));
  await assert.rejects(
    m.client.post('/api/users', {}),
    (e) => m.errors.isApiError(e) && e.fields?.name === 'Name specified incorrectly',
  );
});

test('an option outside the plan carries the option from the error details', async () => {
  answer(403, {
    code: 'optionUnavailableException',
    entity: null,
    error: { code: 'optionUnavailableException', message: 'prose', details: { option: 'OPTION_STATISTIC' } },
  });
  await assert.rejects(
    m.client.get('/api/reports'),
    (e) => m.errors.isApiError(e) && e.details?.option === 'OPTION_STATISTIC',
  );
});

test('a network failure reports the lost connection until a call gets through', async () => {
  const seen: boolean[] = [];
  const off = m.connection.onConnectionChange((lost) => seen.push(lost));
  mock.method(console, 'warn', () => {});
  g.fetch = async () => {
    throw new TypeError('Failed to fetch');
  };
  await assert.rejects(m.client.get('/api/x'), (e) => m.errors.isApiError(e) && e.code === 'networkError');
  answer(200, { code: 'ok', entity: 1, error: null });
  await m.client.get('/api/x');
  off();
  assert.deepEqual(seen, [false, true, false]);
});

test('back online: the notice clears only once /api/health answers', async () => {
  const seen: boolean[] = [];
  const off = m.connection.onConnectionChange((lost) => seen.push(lost));
  m.connection.reportConnectionLost();
  const down = async () => {
    throw new TypeError('Failed to fetch');
  };
  assert.equal(await m.connection.probeConnection(down as typeof fetch), false);
  const busy = async () => new Response('{}', { status: 503 });
  assert.equal(await m.connection.probeConnection(busy as typeof fetch), false);
  const paths: string[] = [];
  const up = async (path: string) => {
    paths.push(path);
    return new Response('{"status":"ok"}');
  };
  assert.equal(await m.connection.probeConnection(up as typeof fetch), true);
  off();
  assert.deepEqual(seen, [false, true, false]);
  assert.deepEqual(paths, ['/api/health']);
});

test('loading a screen: 403 -> /no-rights (a plan option -> /admin/options), 404 -> /not-found, 500 toast except on identity calls', () => {
  const went: string[] = [];
  m.query.setNavigator((to) => went.push(to));
  const show = mock.method(m.notifications.notifications, 'show', () => '');
  const E = m.errors.ApiError;
  m.query.handleLoadError(new E(403, 'accessDeniedException'));
  m.query.handleLoadError(new E(404, 'teamNotFoundException'));
  m.query.handleLoadError(new E(404, 'notFoundException'), { silent: true });
  m.query.handleLoadError(new E(500, 'unknownException'), { identity: true });
  m.query.handleLoadError(
    new E(403, 'optionUnavailableException', undefined, { option: 'OPTION_STATISTIC' }),
  );
  m.query.handleLoadError(new E(403, 'optionUnavailableException'));
  assert.deepEqual(went, [
    '/no-rights',
    '/not-found',
    '/admin/options?option=OPTION_STATISTIC',
    '/admin/options',
  ]);
  assert.equal(show.mock.callCount(), 0);
  m.query.handleLoadError(new E(500, 'unknownException'));
  assert.equal(show.mock.callCount(), 1);
  assert.equal(show.mock.calls[0].arguments[0]?.message, 'Unknown error');
});

test('an action: the toast text comes from the error code, never from server prose', () => {
  const show = mock.method(m.notifications.notifications, 'show', () => '');
  const E = m.errors.ApiError;
  m.query.handleActionError(new E(403, 'accessDeniedException'));
  m.query.handleActionError(new E(409, 'teamNameAlreadyExistsException'));
  m.query.handleActionError(new E(400, 'validationException'), { form: true });
  m.query.handleActionError(new E(0, 'networkError'));
  m.query.handleActionError(new E(401, 'unauthorizedException'));
  m.query.handleActionError(new E(401, 'totpInvalidException'));
  assert.deepEqual(
    show.mock.calls.map((c) => c.arguments[0]?.message),
    ['Access denied', 'A team with this name already exists', 'The code entered is incorrect'],
  );
});
