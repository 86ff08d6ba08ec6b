import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LOGIN_ACCOUNT_LIMIT, LOGIN_LIMIT } from '../../src/modules/auth/service.ts';
import { createOrganisation, startTestServer, TEST_PASSWORD, type TestServer } from '../helpers.ts';

/** Wrong passwords are limited per (account, address), per address and per account with a high ceiling. */
describe('login limits cannot lock the owner out', () => {
  let s: TestServer;
  before(async () => {
    // Behind a proxy: X-Forwarded-For names the client, so the test can speak from several addresses.
    s = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  after(() => s.close());

  const login = (email: string, password: string, from: string) =>
    s.api.call('POST', '/api/auth/login', { email, password }, { 'x-forwarded-for': from });

  test("a stranger's wrong passwords stop the stranger, not the owner on another address", async () => {
    const org = await createOrganisation(s);
    const email = org.admin.email;
    const codes: string[] = [];
    for (let i = 0; i <= LOGIN_LIMIT.max; i++)
      codes.push((await login(email, 'Wrong-pass1!', '203.0.113.9')).body.code);
    assert.deepEqual(
      codes.slice(0, LOGIN_LIMIT.max),
      new Array(LOGIN_LIMIT.max).fill('invalidCredentialsException'),
    );
    assert.equal(codes[LOGIN_LIMIT.max], 'tooManyRequestsException');
    // The stranger is refused even with the right password from that address...
    const blocked = await login(email, TEST_PASSWORD, '203.0.113.9');
    assert.equal(blocked.status, 429);
    // ...while the owner, elsewhere, signs in.
    const owner = await login(email, TEST_PASSWORD, '198.51.100.20');
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    assert.ok(owner.body.entity.token);
  });

  test('a guess spread over many addresses meets the per-account ceiling', async () => {
    const org = await createOrganisation(s);
    const email = org.admin.email;
    const perAddress = LOGIN_LIMIT.max;
    let sent = 0;
    for (let a = 0; sent < LOGIN_ACCOUNT_LIMIT.max; a++) {
      const batch = Math.min(perAddress, LOGIN_ACCOUNT_LIMIT.max - sent);
      const res = await Promise.all(
        Array.from({ length: batch }, () => login(email, 'Wrong-pass1!', `192.0.2.${a + 1}`)),
      );
      assert.ok(res.every((r) => r.body.code === 'invalidCredentialsException'));
      sent += batch;
    }
    const fresh = await login(email, 'Wrong-pass1!', '198.51.100.77');
    assert.equal(fresh.status, 429);
    assert.equal(fresh.body.code, 'tooManyRequestsException');
  });
});
