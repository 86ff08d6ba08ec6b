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
  form: typeof import('../form.ts');
  notifications: typeof import('@mantine/notifications');
};
let m: Modules;
before(async () => {
  m = {
    client: await import('./client.ts'),
    errors: await import('./errors.ts'),
    connection: await import('./connection.ts'),
    query: await import('../query.ts'),
    form: await import('../form.ts'),
    notifications: await import('@mantine/notifications'),
  };
  // The locales load on demand (shared/i18n): the English texts first, as main.tsx does before rendering.
  await (await import('../i18n/index.ts')).loadLocale('eng');
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

// Issue point 12: whatever a failure looks like, the screen shows a translated text from the code (or
// nothing on an identity call, §7), never the server's or a proxy's own words.
const PROSE = /server prose|stack|at Object|<html|Fastify|Unexpected token|Body is not valid JSON/i;

function html(status: number) {
  g.fetch = async () =>
    new Response('<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>', {
      status,
      headers: { 'content-type': 'text/html' },
    });
}

/** Runs one failing call the way a screen does (a load, an action, a form) and returns the toasts shown. */
async function shown(call: () => Promise<unknown>, how: 'load' | 'action' | 'form' = 'load') {
  const show = mock.method(m.notifications.notifications, 'show', () => '');
  const set: Record<string, string>[] = [];
  const form = { setErrors: (e: Record<string, string>) => set.push(e) };
  const err = await call().then(
    () => assert.fail('the call should fail'),
    (e: unknown) => e,
  );
  if (how === 'load') m.query.handleLoadError(err);
  else if (how === 'action') m.query.handleActionError(err);
  // biome-ignore lint/suspicious/noExplicitAny: a stand-in for a Mantine form
  else m.form.showServerErrors(form as any, err);
  const toasts = show.mock.calls.map((c) => String(c.arguments[0]?.message));
  show.mock.restore();
  for (const text of [...toasts, ...set.flatMap((e) => Object.values(e))]) assert.doesNotMatch(text, PROSE);
  return { err, toasts, fields: set };
}

test('a non-JSON 500 or 502 (a proxy page) ends in the Unknown error toast', async () => {
  html(502);
  const load = await shown(() => m.client.get('/api/teams'));
  assert.ok(m.errors.isApiError(load.err) && load.err.code === 'unknownException' && load.err.status === 502);
  assert.deepEqual(load.toasts, ['Unknown error']);
  html(500);
  assert.deepEqual((await shown(() => m.client.post('/api/teams', { name: 'x' }), 'action')).toasts, [
    'Unknown error',
  ]);
  assert.deepEqual((await shown(() => m.client.post('/api/teams', { name: 'x' }), 'form')).toasts, [
    'Unknown error',
  ]);
});

test('a JSON 500 with server prose, a stack or a code outside the catalogue shows only Unknown error', async () => {
  answer(500, {
    code: 'InternalServerError',
    entity: null,
    error: { code: 'InternalServerError', message: 'server prose\n    at Object.<anonymous> (stack)' },
  });
  const r = await shown(() => m.client.get('/api/chats'));
  assert.ok(m.errors.isApiError(r.err) && r.err.code === 'unknownException');
  assert.deepEqual(r.toasts, ['Unknown error']);
  answer(500, fail('unknownException'));
  assert.deepEqual((await shown(() => m.client.del('/api/teams/1'), 'action')).toasts, ['Unknown error']);
});

test('identity calls (§7): a 500 of any shape is ignored silently, whatever the screen passes as meta', async () => {
  store.set('token', 'abc');
  for (const respond of [() => html(500), () => answer(500, fail('unknownException'))]) {
    respond();
    const load = await shown(() => m.client.get('/api/auth/user'));
    assert.ok(m.errors.isApiError(load.err) && load.err.identity);
    assert.deepEqual(load.toasts, []);
    assert.deepEqual((await shown(() => m.client.post('/api/auth/generate'), 'action')).toasts, []);
    const form = await shown(() => m.client.patch('/api/auth/acc/update', { name: 'x' }), 'form');
    assert.deepEqual([form.toasts, form.fields], [[], []]);
  }
  // Public calls of the auth service (login, recovery) are not identity calls: their screens answer.
  answer(500, fail('unknownException'));
  const login = await shown(() => m.client.post('/api/auth/login', {}, { public: true }), 'action');
  assert.ok(m.errors.isApiError(login.err) && !login.err.identity);
  assert.deepEqual(login.toasts, ['Unknown error']);
  // Not a 500: an identity call's other errors are shown as usual.
  answer(403, fail('accessDeniedException'));
  assert.deepEqual((await shown(() => m.client.post('/api/auth/generate'), 'action')).toasts, [
    'Access denied',
  ]);
});

test('a network failure shows no server text: no toast, the connection notice instead (§8 fetch exceptions)', async () => {
  mock.method(console, 'warn', () => {});
  const seen: boolean[] = [];
  const off = m.connection.onConnectionChange((lost) => seen.push(lost));
  g.fetch = async () => {
    throw new TypeError('Failed to fetch');
  };
  const r = await shown(() => m.client.get('/api/teams'));
  assert.ok(m.errors.isApiError(r.err) && r.err.code === 'networkError');
  assert.deepEqual(r.toasts, []);
  assert.deepEqual((await shown(() => m.client.post('/api/teams', {}), 'form')).toasts, []);
  answer(200, { code: 'ok', entity: 1, error: null });
  await m.client.get('/api/x');
  off();
  assert.deepEqual(seen, [false, true, false]);
});

test("malformed JSON: the server's English parser text under fields._ is never shown; the code's toast is", async () => {
  answer(
    400,
    fail('validationException', {
      _: "Body is not valid JSON but content-type is set to 'application/json'",
    }),
  );
  const r = await shown(() => m.client.post('/api/teams', {}), 'form');
  assert.deepEqual(r.toasts, ['Please fill in all required fields']);
  assert.deepEqual(r.fields, []);
});

test('a field message outside the spec catalogue reads as Incorrect value entered, never as sent', async () => {
  answer(
    400,
    fail('validationException', {
      name: 'Name specified incorrectly',
      limit: 'Expected number, received nan',
    }),
  );
  const r = await shown(() => m.client.post('/api/teams', {}), 'form');
  assert.deepEqual(r.fields, [{ name: 'Name specified incorrectly', limit: 'Incorrect value entered' }]);
  assert.deepEqual(r.toasts, []);
  // Fields that are not strings are dropped by the client.
  answer(400, fail('validationException', { name: { nested: 'x' } } as never));
  const e = await m.client.post('/api/teams', {}).catch((x: unknown) => x);
  assert.ok(m.errors.isApiError(e));
  assert.deepEqual(e.fields, {});
});

test('a 2xx that is not the API envelope (the SPA page for an unknown path) is an unknown error, not success', async () => {
  g.fetch = async () => new Response('<!doctype html><div id="app"></div>', { status: 200 });
  const r = await shown(() => m.client.get('/api/teams'));
  assert.ok(m.errors.isApiError(r.err) && r.err.code === 'unknownException');
  assert.deepEqual(r.toasts, ['Unknown error']);
});

test('a non-JSON 4xx from a proxy is read by its status (413 too large, 429, 404), not as not-found always', async () => {
  const codes: string[] = [];
  for (const status of [413, 429, 404, 400]) {
    g.fetch = async () => new Response('<html>nope</html>', { status });
    const e = await m.client.post('/api/x', {}).catch((x: unknown) => x);
    codes.push(m.errors.isApiError(e) ? e.code : 'not an ApiError');
  }
  assert.deepEqual(codes, [
    'payloadTooLargeException',
    'tooManyRequestsException',
    'notFoundException',
    'unknownException',
  ]);
});
