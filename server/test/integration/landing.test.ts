import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { LANDING_RATE } from '../../src/modules/landing/routes.ts';
import { createOrganisation, createPlatformStaff, startTestServer, type TestServer } from '../helpers.ts';

/** The landing page's trial requests (§2.2, §3 Landing request, §5, issue 19). */
describe('landing requests', () => {
  let s: TestServer;
  let n = 0;
  before(async () => {
    // Behind a proxy: X-Forwarded-For names the visitor, so each test speaks from its own address.
    s = await startTestServer({ env: { TRUST_PROXY: 'true' } });
  });
  after(() => s.close());

  const from = () => `198.51.100.${++n}`;
  const send = (body: unknown, address = from()) =>
    s.api.call('POST', '/api/landing-requests', body, { 'x-forwarded-for': address });

  test('the short form stores the phone, cleaned; staff read it back with every field', async () => {
    const res = await send({ phone: ' +7 (900) 123-45-67 ', form: 'short', language: 'rus' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const id = res.body.entity.id;
    const staff = await createPlatformStaff(s);
    const list = await staff.get('/api/landing-requests');
    assert.equal(list.status, 200);
    const item = list.body.entity.items.find((i: { id: string }) => i.id === id);
    assert.deepEqual(
      { ...item, createdAt: undefined },
      {
        id,
        phone: '+79001234567',
        name: null,
        company: null,
        form: 'short',
        language: 'rus',
        createdAt: undefined,
      },
    );
    assert.equal(item.createdAt, s.clock.now().toISOString());
  });

  test('the long form stores name, phone and organisation name', async () => {
    const res = await send({ phone: '89001112233', name: ' Anna ', company: 'Horns & Hooves', form: 'long' });
    assert.equal(res.status, 200);
    const staff = await createPlatformStaff(s);
    const items = (await staff.get('/api/landing-requests')).body.entity.items;
    const item = items.find((i: { id: string }) => i.id === res.body.entity.id);
    assert.equal(item.name, 'Anna');
    assert.equal(item.company, 'Horns & Hooves');
    // The Russian trunk form in E.164, as every stored phone (issue 29).
    assert.equal(item.phone, '+79001112233');
    assert.equal(item.language, 'eng');
  });

  test('§5 messages: a wrong phone, a long form without name or organisation, too long values', async () => {
    for (const phone of ['', '12', 'call me', '+7 900 abc', '1'.repeat(21), 42, undefined]) {
      const res = await send({ phone, form: 'short' });
      assert.equal(res.status, 400, String(phone));
      assert.equal(res.body.code, 'validationException');
      assert.equal(res.body.error.fields.phone, M.phoneIncorrect, String(phone));
    }
    const res = await send({ phone: '+79001234567', form: 'long', name: '  ' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.fields, { name: M.nameIncorrect, company: M.organisationNameIncorrect });
    const modal = await send({ phone: '+79001234567', form: 'modal', name: 'x'.repeat(256), company: 'Co' });
    assert.deepEqual(modal.body.error.fields, { name: M.nameIncorrect });
    const long = await send({ phone: '+79001234567', form: 'long', name: 'Ann', company: 'c'.repeat(256) });
    assert.deepEqual(long.body.error.fields, { company: M.organisationNameIncorrect });
  });

  test('a filled honeypot is answered like a request and not stored', async () => {
    const staff = await createPlatformStaff(s);
    const before = (await staff.get('/api/landing-requests')).body.entity.total;
    const res = await send({ phone: '+79005554433', website: 'http://spam.example' });
    assert.equal(res.status, 200);
    assert.ok(res.body.entity.id);
    assert.equal((await staff.get('/api/landing-requests')).body.entity.total, before);
  });

  test('rate-limited per address: 429 with Retry-After, another address still passes, and later again', async () => {
    const address = from();
    for (let i = 0; i < LANDING_RATE.max; i++)
      assert.equal((await send({ phone: '+79000000000' }, address)).status, 200);
    const res = await s.api.call(
      'POST',
      '/api/landing-requests',
      { phone: '+79000000000' },
      { 'x-forwarded-for': address },
    );
    assert.equal(res.status, 429);
    assert.equal(res.body.code, 'tooManyRequestsException');
    const raw = await fetch(`${s.url}/api/landing-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ phone: '+79000000000' }),
    });
    assert.equal(raw.status, 429);
    assert.ok(Number(raw.headers.get('retry-after')) > 0);
    assert.equal((await send({ phone: '+79000000000' })).status, 200);
    s.clock.advance(LANDING_RATE.windowMs + 1000);
    assert.equal((await send({ phone: '+79000000000' }, address)).status, 200);
  });

  test('only platform staff list requests: anonymous 401, an organisation administrator 403', async () => {
    assert.equal((await s.api.get('/api/landing-requests')).status, 401);
    const org = await createOrganisation(s);
    const res = await org.admin.api.get('/api/landing-requests');
    assert.equal(res.status, 403);
  });

  test('the list is newest first and walks by cursor without gaps or repeats', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      s.clock.advance(1000);
      ids.push((await send({ phone: `+7900000000${i}` })).body.entity.id);
    }
    const staff = await createPlatformStaff(s);
    const seen: string[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = (await staff.get(`/api/landing-requests?limit=3${q}`)).body.entity;
      total = page.total;
      assert.ok(page.items.length <= 3);
      seen.push(...page.items.map((i: { id: string }) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, seen.length);
    assert.deepEqual(seen.slice(0, 4), [...ids].reverse());
    const bad = await staff.get('/api/landing-requests?cursor=nonsense');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields.cursor, M.incorrectValue);
  });
});
