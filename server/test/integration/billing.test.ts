import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REALTIME_CLOSE } from '@smartconnect/contracts';
import { loadConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/index.ts';
import { runPeriodic } from '../../src/jobs/periodic.ts';
import { runDailyCharges } from '../../src/modules/billing/daily-charge.ts';
import { ProcessState } from '../../src/process-state.ts';
import { createServer } from '../../src/server.ts';
import { type FakeYooKassa, startFakeYooKassa } from '../fakes/yookassa.ts';
import {
  type Api,
  createOrganisation,
  createPlatformStaff,
  loginToken,
  startTestServer,
  type TestOrg,
  type TestServer,
} from '../helpers.ts';
import { pdfText } from '../pdf-text.ts';
import { RealtimeClient } from './realtime-client.ts';

const DAY = 86_400_000;
const day = (s: TestServer, plus = 0) =>
  new Date(s.clock.now().getTime() + plus * DAY).toISOString().slice(0, 10);

/** Organisations, plans and finance (issue 19): §8 licences and billing errors, top-up, documents, daily charge. */
describe('billing', () => {
  let s: TestServer;
  let staff: Api;
  let yk: FakeYooKassa;
  let plans: Record<string, { id: string; price: number; options: string[]; operatorLicences: number }>;
  before(async () => {
    yk = await startFakeYooKassa();
    s = await startTestServer({ env: yk.env });
    yk.webhookUrl = `${s.url}/api/finance/yookassa/notifications`;
    staff = await createPlatformStaff(s);
    const list = await staff.get('/api/plans');
    plans = Object.fromEntries(list.body.entity.items.map((p: { name: string }) => [p.name, p]));
  });
  after(async () => {
    await s.close();
    await yk.close();
  });

  /** A customer organisation on a plan (through staff's edit, with the balance to pay for it). */
  async function onPlan(org: TestOrg, plan: string, balance = plans[plan].price) {
    const res = await staff.patch(`/api/organisations/${org.id}`, { balance, planId: plans[plan].id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity;
  }

  test('seeded plans: statistics only in the extended tariff; no cap on accounts (only licences, §6)', () => {
    assert.ok(plans.Extended.options.includes('OPTION_STATISTIC'));
    assert.ok(!plans.Basic.options.includes('OPTION_STATISTIC'));
    assert.equal((plans.Basic as { accountsMax?: number | null }).accountsMax, null);
    assert.equal((plans.Extended as { accountsMax?: number | null }).accountsMax, null);
  });

  test("finance names the tariff of an organisation on no plan (its own options: not 'No tariff')", async () => {
    const org = await createOrganisation(s);
    const own = (await org.admin.api.get('/api/finance')).body.entity;
    assert.equal(own.plan, null);
    assert.equal(own.tariffName, 'Extended');
    await onPlan(org, 'Basic');
    const onBasic = (await org.admin.api.get('/api/finance')).body.entity;
    assert.equal(onBasic.plan.name, 'Basic');
    assert.equal(onBasic.tariffName, 'Basic');
  });

  test('staff create an organisation; its administrator sets a password from the mailed link and logs in', async () => {
    const login = `acme-${Date.now()}`;
    const body = {
      login,
      name: 'ООО Акме',
      adminEmail: `boss@${login}.test`,
      language: 'rus',
      planId: plans.Basic.id,
    };
    const res = await staff.post('/api/organisations', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const org = res.body.entity;
    assert.equal(org.login, login);
    assert.equal(org.adminEmail, body.adminEmail);
    assert.equal(org.tariffName, 'Basic');
    assert.deepEqual([...org.options].sort(), [...plans.Basic.options].sort());
    assert.equal(org.operatorLicences, plans.Basic.operatorLicences);
    assert.equal(org.paidUntil, day(s, 6), '7-day trial');
    assert.equal(org.status, 'active');
    const mail = s.mails.find((m) => m.to === body.adminEmail);
    assert.ok(mail, 'invitation mailed');
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail.text ?? '')?.[1] ?? '');
    const reset = await s.api.post('/api/auth/recovery/reset', {
      token,
      password: 'Secr3t!pass',
      repeatPassword: 'Secr3t!pass',
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const admin = s.api.as(await loginToken(s.api, body.adminEmail, 'Secr3t!pass'));
    const me = await admin.get('/api/organisation');
    assert.equal(me.body.entity.id, org.id);
    // Listed for staff; the login is unique; §5 field messages.
    assert.ok(
      (await staff.get('/api/organisations')).body.entity.items.some((o: { id: string }) => o.id === org.id),
    );
    const again = await staff.post('/api/organisations', { ...body, adminEmail: `other@${login}.test` });
    assert.equal(again.body.code, 'organizationLoginAlreadyExistsException');
    const bad = await staff.post('/api/organisations', { login: ' ', name: '', adminEmail: 'x' });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.fields, {
      login: 'Login specified incorrectly',
      name: 'Organisation name specified incorrectly',
      adminEmail: 'Email specified incorrectly',
      planId: 'Tariff is required',
    });
  });

  test('deactivating an organisation ends its sessions and refuses its logins; extending adds 14 days', async () => {
    const org = await createOrganisation(s);
    await staff.patch(`/api/organisations/${org.id}`, { paidUntil: day(s, 3) });
    const ext = await staff.post(`/api/organisations/${org.id}/extend`);
    assert.equal(ext.status, 200, JSON.stringify(ext.body));
    assert.equal(ext.body.entity.paidUntil, day(s, 17));
    const op = await org.user({ role: 'OPERATOR' });
    const sockets = [
      await RealtimeClient.connect(s.url, org.admin.token),
      await RealtimeClient.connect(s.url, op.token),
    ];
    const off = await staff.patch(`/api/organisations/${org.id}`, { status: 'deactivated' });
    assert.equal(off.body.entity.status, 'deactivated');
    assert.equal((await org.admin.api.get('/api/auth/user')).status, 401);
    // Their open sockets close at once too, not at the next revalidation (issue 29).
    for (const c of sockets) assert.equal(await c.waitClosed(2_000), REALTIME_CLOSE.unauthorized);
    const login = await s.api.post('/api/auth/login', {
      email: org.admin.email,
      password: org.admin.password,
    });
    assert.equal(login.status, 401);
    const refused = await staff.post(`/api/organisations/${org.id}/extend`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.message, 'cannot extend tariff');
    // A tariff without an end cannot be extended either.
    const open = await createOrganisation(s);
    assert.equal(
      (await staff.post(`/api/organisations/${open.id}/extend`)).body.code,
      'cannotExtendTariffException',
    );
  });

  test('staff edit an organisation: login, administrator e-mail, instance, balance, first tariff day', async () => {
    const org = await createOrganisation(s);
    const patch = {
      login: `renamed-${Date.now()}`,
      adminEmail: 'new-admin@renamed.test',
      instance: 'eu-1',
      balance: 1234.5,
      firstTariffDay: '2026-01-01',
      billingMode: 'postpaid',
    };
    const res = await staff.patch(`/api/organisations/${org.id}`, patch);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const [k, v] of Object.entries(patch)) assert.deepEqual(res.body.entity[k], v, k);
    assert.ok(res.body.entity.updatedAt);
  });

  test('plans: staff create and change them; only RIGHT_OBSERVER', async () => {
    const name = `Pro ${Date.now()}`;
    const body = {
      name,
      price: 15000,
      operatorLicences: 50,
      accountsMax: null,
      options: ['OPTION_STATISTIC'],
    };
    const created = await staff.post('/api/plans', body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal((await staff.post('/api/plans', body)).body.code, 'planNameAlreadyExistsException');
    const bad = await staff.post('/api/plans', { ...body, name: `${name}x`, price: -1 });
    assert.equal(bad.body.error.fields.price, 'Price specified incorrectly');
    const org = await createOrganisation(s);
    await staff.patch(`/api/organisations/${org.id}`, { balance: 20000, planId: created.body.entity.id });
    const changed = await staff.patch(`/api/plans/${created.body.entity.id}`, { operatorLicences: 7 });
    assert.equal(changed.body.entity.operatorLicences, 7);
    assert.equal((await org.admin.api.get('/api/organisation')).body.entity.operatorLicences, 7);
    for (const [m, p] of [
      ['GET', '/api/plans'],
      ['POST', '/api/plans'],
      ['POST', '/api/organisations'],
      ['POST', `/api/organisations/${org.id}/extend`],
    ] as const)
      assert.equal((await org.admin.api.call(m, p, m === 'GET' ? undefined : body)).status, 403, `${m} ${p}`);
  });

  test("changing the plan checks the balance: 'not enough balance to change tariff' with the price", async () => {
    const org = await createOrganisation(s);
    const refused = await org.admin.api.put('/api/finance/plan', { planId: plans.Extended.id });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.message, 'not enough balance to change tariff');
    assert.equal(refused.body.error.details.price, plans.Extended.price);
    await staff.patch(`/api/organisations/${org.id}`, { balance: plans.Extended.price });
    const ok = await org.admin.api.put('/api/finance/plan', { planId: plans.Extended.id });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.entity.plan.name, 'Extended');
    const own = (await org.admin.api.get('/api/organisation')).body.entity;
    assert.ok(own.options.includes('OPTION_STATISTIC'));
    assert.equal(own.operatorLicences, plans.Extended.operatorLicences);
    // Staff get the same check.
    const other = await createOrganisation(s);
    const staffRefused = await staff.patch(`/api/organisations/${other.id}`, { planId: plans.Basic.id });
    assert.equal(staffRefused.body.code, 'notEnoughBalanceException');
  });

  test("licence limit and account quota of the plan: 'all operator licences taken', 'quota exceeded for login'", async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    const tight = await staff.post('/api/plans', {
      name: `Tight ${Date.now()}`,
      price: 0,
      operatorLicences: 0,
      accountsMax: 2,
      options: [],
    });
    await onPlan(org, 'Basic', 0).catch(() => undefined);
    await staff.patch(`/api/organisations/${org.id}`, { planId: tight.body.entity.id });
    const online = await op.api.patch('/api/presence', { status: 'online' });
    assert.equal(online.status, 409);
    assert.equal(online.body.error.message, 'all operator licences taken');
    const user = await org.admin.api.post('/api/users', {
      name: 'One too many',
      email: `extra-${Date.now()}@quota.test`,
      roleId: org.roles.OPERATOR,
      password: 'Passw0rd!',
      repeatPassword: 'Passw0rd!',
    });
    assert.equal(user.status, 409);
    assert.equal(user.body.error.message, 'quota exceeded for login');
  });

  test('top-up: below 500 refused; the payment page; the webhook verified with the API and idempotent', async () => {
    const org = await createOrganisation(s);
    const low = await org.admin.api.post('/api/finance/top-up', { amount: 499 });
    assert.equal(low.status, 400);
    assert.equal(low.body.code, 'invalidAmountException');
    assert.equal(low.body.error.message, 'invalid amount (min 500)');
    const op = await org.user({ role: 'OPERATOR' });
    assert.equal((await op.api.post('/api/finance/top-up', { amount: 500 })).status, 403);
    const res = await org.admin.api.post('/api/finance/top-up', { amount: 500 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { paymentId, confirmationUrl } = res.body.entity;
    assert.ok(confirmationUrl.startsWith(`${yk.baseUrl}/checkout/`));
    assert.equal(yk.keys.at(-1), paymentId, 'our payment id is the Idempotence-Key');
    const providerId = confirmationUrl.split('/').pop() as string;
    const balance = async () => (await org.admin.api.get('/api/finance')).body.entity.balance;
    // A forged notification claiming success while the provider says pending credits nothing.
    assert.equal(
      await yk.notify(providerId, 'payment.succeeded', { id: providerId, status: 'succeeded', paid: true }),
      200,
    );
    assert.equal(await balance(), 0);
    // An unknown payment is ignored.
    assert.equal(await yk.notify('no-such-payment', 'payment.succeeded', { id: 'no-such-payment' }), 200);
    yk.finish(providerId);
    const replays = await Promise.all([1, 2, 3].map(() => yk.notify(providerId)));
    assert.deepEqual(replays, [200, 200, 200]);
    assert.equal(await yk.notify(providerId), 200);
    assert.equal(await balance(), 500, 'credited exactly once');
    const payments = (await org.admin.api.get('/api/finance/payments')).body.entity.items;
    assert.equal(payments.length, 1);
    assert.deepEqual(
      {
        type: payments[0].type,
        status: payments[0].status,
        amount: payments[0].amount,
        currency: payments[0].currency,
      },
      { type: 'top_up', status: 'succeeded', amount: 500, currency: 'RUB' },
    );
    assert.equal(payments[0].transactionId, providerId);
    const refreshed = await org.admin.api.post(`/api/finance/payments/${paymentId}/refresh`);
    assert.equal(refreshed.body.entity.status, 'succeeded');
    const docs = (await org.admin.api.get('/api/finance/documents')).body.entity.items;
    assert.deepEqual(docs.map((d: { kind: string }) => d.kind).sort(), ['act', 'factura', 'invoice']);
    assert.ok(
      docs.every(
        (d: { paid: boolean; sum: number; vat: number }) => d.paid && d.sum === 500 && d.vat === 83.33,
      ),
    );
    // The invoice as a PDF, its text extracted: Cyrillic in a font that ships with the install.
    const invoice = docs.find((d: { kind: string }) => d.kind === 'invoice');
    const pdf = await pdfText(`${s.url}${invoice.link}`, org.admin.token);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.type, 'application/pdf');
    const text = pdf.text;
    assert.match(text, /Счёт на оплату № INV-\d{6}/);
    assert.match(text, /Сумма с НДС: 500,00 руб\./);
    assert.match(text, /оплачен/);
    // Another organisation sees none of it.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.get(invoice.link)).status, 404);
    assert.deepEqual(yk.unexpected, []);
  });

  test("limit on simultaneously created objects; 'postpaid account not switched to prepaid'", async () => {
    const org = await createOrganisation(s);
    for (let i = 0; i < 3; i++)
      assert.equal((await org.admin.api.post('/api/finance/top-up', { amount: 600 })).status, 200);
    const fourth = await org.admin.api.post('/api/finance/top-up', { amount: 600 });
    assert.equal(fourth.status, 429);
    assert.equal(fourth.body.error.message, 'limit on simultaneously created objects');
    const post = await createOrganisation(s);
    await staff.patch(`/api/organisations/${post.id}`, { billingMode: 'postpaid' });
    const refused = await post.admin.api.post('/api/finance/top-up', { amount: 500 });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.message, 'postpaid account not switched to prepaid');
    assert.equal((await post.admin.api.get('/api/finance')).body.entity.billingMode, 'postpaid');
  });

  test("'billing account not registered' with PAYMENT_PROVIDER=none", async () => {
    const bare = await startTestServer({ env: { PAYMENT_PROVIDER: 'none' } });
    try {
      const org = await createOrganisation(bare);
      const res = await org.admin.api.post('/api/finance/top-up', { amount: 500 });
      assert.equal(res.status, 409);
      assert.equal(res.body.error.message, 'billing account not registered');
    } finally {
      await bare.close();
    }
  });

  test('without a YooKassa shop the demo payment page takes top-ups: pay credits once, cancel closes, scoped to the organisation', async () => {
    const demo = await startTestServer();
    try {
      const org = await createOrganisation(demo);
      // The seeded Demo organisation's flag (the first-start seed sets it; see the test below), on this one.
      await demo.app.db.query('update organisations set demo_payment_page = true where id = $1', [org.id]);
      const balance = async () => (await org.admin.api.get('/api/finance')).body.entity.balance;
      const low = await org.admin.api.post('/api/finance/top-up', { amount: 499.5 });
      assert.equal(low.status, 400);
      assert.equal(low.body.error.message, 'invalid amount (min 500)');
      const start = async (amount: number) => {
        const res = await org.admin.api.post('/api/finance/top-up', { amount });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const url = new URL(res.body.entity.confirmationUrl);
        assert.equal(url.origin, 'http://localhost:3000', 'the page is on this installation (PUBLIC_URL)');
        const [, id] = url.pathname.match(/^\/admin\/finance\/demo-payment\/([0-9a-f-]{36})$/) ?? [];
        assert.ok(id, url.pathname);
        return { paymentId: res.body.entity.paymentId as string, id: id as string };
      };
      const first = await start(750);
      const shown = await org.admin.api.get(`/api/finance/demo-payments/${first.id}`);
      assert.equal(shown.status, 200);
      assert.deepEqual(
        {
          amount: shown.body.entity.amount,
          currency: shown.body.entity.currency,
          status: shown.body.entity.status,
        },
        { amount: 750, currency: 'RUB', status: 'pending' },
      );
      assert.equal(
        shown.body.entity.returnUrl,
        `http://localhost:3000/admin/finance/balance?payment=${first.paymentId}`,
      );
      // Another organisation, and a user without AUTHORITY_FINANCE, can neither see nor pay it.
      const other = await createOrganisation(demo);
      assert.equal((await other.admin.api.get(`/api/finance/demo-payments/${first.id}`)).status, 404);
      assert.equal((await other.admin.api.post(`/api/finance/demo-payments/${first.id}/pay`)).status, 404);
      const op = await org.user({ role: 'OPERATOR' });
      assert.equal((await op.api.post(`/api/finance/demo-payments/${first.id}/pay`)).status, 403);
      assert.equal(await balance(), 0);
      // Paid twice at once and once more: credited once, with its act and factura.
      const paid = await Promise.all(
        [1, 2].map(() => org.admin.api.post(`/api/finance/demo-payments/${first.id}/pay`)),
      );
      assert.deepEqual(
        paid.map((r) => r.body.entity?.status),
        ['succeeded', 'succeeded'],
      );
      assert.equal(
        (await org.admin.api.post(`/api/finance/demo-payments/${first.id}/cancel`)).body.entity.status,
        'succeeded',
      );
      assert.equal(await balance(), 750, 'credited exactly once');
      const payment = (await org.admin.api.post(`/api/finance/payments/${first.paymentId}/refresh`)).body
        .entity;
      assert.deepEqual([payment.status, payment.transactionId], ['succeeded', first.id]);
      const docs = (await org.admin.api.get('/api/finance/documents')).body.entity.items;
      assert.deepEqual(docs.map((d: { kind: string }) => d.kind).sort(), ['act', 'factura', 'invoice']);
      // Cancelled: nothing credited, the payment closed; paying afterwards changes nothing.
      const second = await start(500);
      assert.equal(
        (await org.admin.api.post(`/api/finance/demo-payments/${second.id}/cancel`)).body.entity.status,
        'canceled',
      );
      assert.equal(
        (await org.admin.api.post(`/api/finance/demo-payments/${second.id}/pay`)).body.entity.status,
        'canceled',
      );
      const closed = (await org.admin.api.post(`/api/finance/payments/${second.paymentId}/refresh`)).body
        .entity;
      assert.equal(closed.status, 'canceled');
      assert.equal(await balance(), 750);
      // Once a YooKassa shop is configured the demo page takes nothing more.
      const third = await start(500);
      (demo.app.config.env as Record<string, string>).YOOKASSA_SHOP_ID = 'shop';
      (demo.app.config.env as Record<string, string>).YOOKASSA_SECRET_KEY = 'key';
      assert.equal((await org.admin.api.post(`/api/finance/demo-payments/${third.id}/pay`)).status, 404);
      assert.equal(await balance(), 750);
    } finally {
      await demo.close();
    }
  });

  test('a default install without a shop: only the seeded Demo organisation has the demo page; others get 409, unless PAYMENT_PROVIDER=demo', async () => {
    const log = console.log;
    console.log = () => {};
    const fresh = await startTestServer({
      env: { SEED_DEMO: 'true', ADMIN_EMAIL: 'boss@demo.test', ADMIN_PASSWORD: 'B0ss-pass!' },
    }).finally(() => {
      console.log = log;
    });
    try {
      const boss = fresh.api.as(await loginToken(fresh.api, 'boss@demo.test', 'B0ss-pass!'));
      const top = await boss.post('/api/finance/top-up', { amount: 600 });
      assert.equal(top.status, 200, JSON.stringify(top.body));
      const id = new URL(top.body.entity.confirmationUrl).pathname.split('/').pop() as string;
      assert.equal((await boss.post(`/api/finance/demo-payments/${id}/pay`)).body.entity.status, 'succeeded');
      assert.equal((await boss.get('/api/finance')).body.entity.balance, 600);
      // An organisation not made by the seed (sign-up's path), even one that calls itself Demo: nobody takes its top-ups.
      const signedUp = await createOrganisation(fresh);
      await fresh.app.db.query(`update organisations set name = 'Demo' where id = $1`, [signedUp.id]);
      const refused = await signedUp.admin.api.post('/api/finance/top-up', { amount: 10_000_000 });
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.message, 'billing account not registered');
      // Nor can it answer the Demo organisation's page, nor a page of its own.
      assert.equal((await signedUp.admin.api.post(`/api/finance/demo-payments/${id}/pay`)).status, 404);
      assert.equal((await signedUp.admin.api.get('/api/finance')).body.entity.balance, 0);
    } finally {
      await fresh.close();
    }
    const chosen = await startTestServer({ env: { PAYMENT_PROVIDER: 'demo' } });
    try {
      const org = await createOrganisation(chosen);
      const top = await org.admin.api.post('/api/finance/top-up', { amount: 500 });
      assert.equal(top.status, 200, JSON.stringify(top.body));
      assert.match(top.body.entity.confirmationUrl, /\/admin\/finance\/demo-payment\/[0-9a-f-]{36}$/);
    } finally {
      await chosen.close();
    }
  });

  test('the daily tariff charge: exactly once per organisation and day, across a crash and a restart', async () => {
    const org = await createOrganisation(s);
    await onPlan(org, 'Basic');
    const balance = async () => (await org.admin.api.get('/api/finance')).body.entity.balance;
    // Covered by its paid days: no charge.
    await staff.patch(`/api/organisations/${org.id}`, { paidUntil: day(s, 0) });
    await runDailyCharges(s.app);
    assert.equal(await balance(), 3000);
    s.clock.advance(DAY);
    // A crash in the middle of the charge's transaction leaves nothing behind.
    await assert.rejects(
      s.app.db.tx(async (q) => {
        await q.query(
          `insert into payments (organisation_id, kind, status, amount, charge_day) values ($1, 'charge', 'succeeded', 100, $2)`,
          [org.id, day(s)],
        );
        throw new Error('crash');
      }),
    );
    // Two instances at once, then the same day again: one charge.
    await Promise.all([runDailyCharges(s.app), runDailyCharges(s.app)]);
    await runDailyCharges(s.app);
    assert.equal(await balance(), 2900, 'a thirtieth of 3000');
    // A restarted server on the same database (PostgreSQL; PGlite lives in this process only) runs its periodic
    // work with the same clock: nothing more for today.
    if (s.databaseUrl) {
      const config = loadConfig({ ...s.app.config.env, SEED_DEMO: 'false', DATABASE_URL: s.databaseUrl });
      const again = await createServer(config, { db: await openPostgres(s.databaseUrl), clock: s.clock });
      await runPeriodic(again.app);
      await again.close();
    } else await runPeriodic({ ...s.app, state: new ProcessState() });
    assert.equal(await balance(), 2900);
    const charges = (await org.admin.api.get('/api/finance/payments')).body.entity.items.filter(
      (p: { type: string }) => p.type === 'charge',
    );
    assert.equal(charges.length, 1);
    assert.equal((await org.admin.api.get('/api/finance')).body.entity.paidUntil, day(s));
    // The next day: one more charge.
    s.clock.advance(DAY);
    await runDailyCharges(s.app);
    await runDailyCharges(s.app);
    assert.equal(await balance(), 2800);
  });

  test('finance needs AUTHORITY_FINANCE', async () => {
    const org = await createOrganisation(s);
    const op = await org.user({ role: 'OPERATOR' });
    for (const p of ['/api/finance', '/api/finance/payments', '/api/finance/documents', '/api/finance/plans'])
      assert.equal((await op.api.get(p)).status, 403, p);
  });
});
