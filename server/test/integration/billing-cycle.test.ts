import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { openPostgres } from '../../src/db/index.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { runDailyCharges } from '../../src/modules/billing/daily-charge.ts';
import { runMonthlyActs } from '../../src/modules/billing/monthly-acts.ts';
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
import { chatOf, goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The billing cycle on a clock of its own (issue 19): monthly acts of the daily charges; the end of paid days
 * (warning, suspension for non-payment, lifted by a top-up).
 */
describe('billing cycle', () => {
  let s: TestServer;
  let staff: Api;
  let yk: FakeYooKassa;
  let plans: Record<string, { id: string; price: number }>;
  before(async () => {
    yk = await startFakeYooKassa();
    // 30 January 2026, 10:00 UTC.
    s = await startTestServer({ clock: new ManualClock(Date.parse('2026-01-30T10:00:00Z')), env: yk.env });
    yk.webhookUrl = `${s.url}/api/finance/yookassa/notifications`;
    staff = await createPlatformStaff(s);
    const list = (await staff.get('/api/plans')).body.entity.items as {
      name: string;
      id: string;
      price: number;
    }[];
    plans = Object.fromEntries(list.map((p) => [p.name, p]));
  });
  after(async () => {
    await s.close();
    await yk.close();
  });
  const day = (plus = 0) => new Date(s.clock.now().getTime() + plus * DAY).toISOString().slice(0, 10);

  /** A customer organisation on a plan (Basic: 100 a day) paid up to `paidUntil`, in `timeZone`. */
  async function customer(
    paidUntil: string,
    timeZone = 'Europe/Moscow',
    balance = 3000,
    plan = 'Basic',
    billingMode?: 'postpaid',
  ): Promise<TestOrg> {
    const org = await createOrganisation(s);
    // One edit: the server's own once-a-minute charge may run between two (and charge the day before the test's).
    const res = await staff.patch(`/api/organisations/${org.id}`, {
      balance,
      planId: plans[plan].id,
      paidUntil,
      firstTariffDay: '2026-01-01',
      ...(billingMode && { billingMode }),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await s.db.query('update organisations set time_zone = $2 where id = $1', [org.id, timeZone]);
    return org;
  }
  const acts = async (org: TestOrg) =>
    (
      (await org.admin.api.get('/api/finance/documents')).body.entity.items as {
        kind: string;
        period: string | null;
      }[]
    ).filter((d) => d.kind === 'act' && d.period);

  test("monthly acts: once per organisation and month, when the month is over in the organisation's zone, across a restart", async () => {
    const moscow = await customer('2026-01-29');
    const angeles = await customer('2026-01-29', 'America/Los_Angeles');
    await runDailyCharges(s.app); // 30 January
    s.clock.advance(DAY);
    await runDailyCharges(s.app); // 31 January
    await runMonthlyActs(s.app);
    assert.deepEqual(await acts(moscow), [], 'January is not over');
    // 1 February 03:00 UTC: 06:00 in Moscow, still 31 January 19:00 in Los Angeles.
    s.clock.advance(17 * HOUR);
    await runDailyCharges(s.app); // 1 February: not in January's act
    await Promise.all([runMonthlyActs(s.app), runMonthlyActs(s.app)]);
    await runMonthlyActs(s.app);
    const [act, ...more] = await acts(moscow);
    assert.deepEqual(more, []);
    assert.deepEqual(
      { ...act, id: undefined, number: undefined, link: undefined },
      {
        id: undefined,
        number: undefined,
        link: undefined,
        kind: 'act',
        period: '2026-01',
        sum: 200,
        vat: 33.33,
        paid: true,
        releaseDate: '2026-01-31',
      },
    );
    assert.deepEqual(await acts(angeles), [], "January is not over in the organisation's zone");
    // A restarted server on the same database (PostgreSQL; PGlite lives in this process only) issues no second act.
    s.clock.advance(7 * HOUR);
    if (s.databaseUrl) {
      const config = loadConfig({ ...s.app.config.env, SEED_DEMO: 'false', DATABASE_URL: s.databaseUrl });
      const again = await createServer(config, { db: await openPostgres(s.databaseUrl), clock: s.clock });
      await runMonthlyActs(again.app);
      await runMonthlyActs(again.app);
      await again.close();
    } else await runMonthlyActs({ ...s.app, state: new ProcessState() });
    await runMonthlyActs(s.app);
    assert.equal((await acts(moscow)).length, 1);
    assert.deepEqual(
      (await acts(angeles)).map((d) => d.period),
      ['2026-01'],
      'issued once January is over in Los Angeles',
    );
    // The act as a PDF with its Cyrillic text.
    const pdf = await pdfText(
      `${s.url}/api/finance/documents/${(act as unknown as { id: string }).id}/pdf`,
      moscow.admin.token,
    );
    assert.equal(pdf.status, 200);
    assert.match(pdf.text, /Акт оказанных услуг № ACT-\d{6} от 31\.01\.2026/);
    assert.match(pdf.text, /за январь 2026 г\./);
    assert.match(pdf.text, /Сумма с НДС: 200,00 руб\./);
    // Another organisation cannot read it.
    assert.equal(
      (
        await pdfText(
          `${s.url}/api/finance/documents/${(act as unknown as { id: string }).id}/pdf`,
          angeles.admin.token,
        )
      ).status,
      404,
    );
  });

  test('paid days ending: the warning state, suspension for non-payment, inbound kept, lifted by a top-up at once', async () => {
    // Extended: 300 a day (it has OPTION_API for the test's channel); the balance covers one more day.
    const org = await customer(day(2), 'Europe/Moscow', 9000, 'Extended');
    await staff.patch(`/api/organisations/${org.id}`, { balance: 400 });
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId], name: 'Olga' });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const first = (await inbound(s, ch, { client: 'c-1' })).body.entity.chatId as string;
    assert.equal((await chatOf(op, first)).operator.id, op.id);
    const state = async () => (await op.api.get('/api/auth/user')).body.entity.organisation.billing;
    // Paid up to today + 2, and 400 covers one more day at 300: the service runs up to today + 3.
    assert.deepEqual(await state(), { serviceUntil: day(3), suspended: false });
    assert.deepEqual((await org.admin.api.get('/api/finance')).body.entity.state, {
      serviceUntil: day(3),
      suspended: false,
    });
    // Four days later: one day charged (100 left), then a day the balance cannot pay.
    for (let i = 0; i < 4; i++) {
      s.clock.advance(DAY);
      await runDailyCharges(s.app);
    }
    assert.deepEqual(await state(), { serviceUntil: day(-1), suspended: true });
    const listed = (await staff.get('/api/organisations')).body.entity.items.find(
      (o: { id: string }) => o.id === org.id,
    );
    assert.equal(listed.suspended, true, 'staff see it in the organisations list');
    const charges = (await org.admin.api.get('/api/finance/payments')).body.entity.items.filter(
      (p: { type: string }) => p.type === 'charge',
    );
    assert.deepEqual(
      charges.map((p: { status: string; amount: number }) => [p.status, p.amount]),
      [
        ['canceled', 300],
        ['succeeded', 300],
      ],
    );
    // The notes are written in the organisation's language (English here).
    assert.deepEqual(
      charges.map((p: { notes: string }) => p.notes),
      [`Tariff Extended, ${day()}: not enough balance`, `Tariff Extended, ${day(-1)}`],
    );
    // Operators cannot answer or take chats and are told why; the customer's messages are still stored.
    const answer = await op.api.post(`/api/chats/${first}/messages`, { text: 'Hello' });
    assert.equal(answer.status, 403);
    assert.equal(answer.body.code, 'organizationSuspendedException');
    assert.equal(answer.body.error.message, 'organisation suspended for non-payment');
    const second = (await inbound(s, ch, { client: 'c-2', text: 'Anybody there?' })).body.entity
      .chatId as string;
    const waiting = await chatOf(op, second);
    assert.equal(waiting.status, 'waiting', 'nobody is handed a chat meanwhile');
    const take = await op.api.post(`/api/chats/${second}/take`);
    assert.equal(take.status, 403);
    assert.equal(take.body.code, 'organizationSuspendedException');
    // The next day's run does not charge twice or lift it; the administrator (AUTHORITY_FINANCE) signs in and
    // reaches Finance.
    await runDailyCharges(s.app);
    const admin = s.api.as(await loginToken(s.api, org.admin.email, org.admin.password));
    assert.equal((await admin.get('/api/finance')).status, 200);
    // A top-up that covers the day lifts the suspension at once: today's charge taken, the days moved to today.
    // (The organisation's language is Russian from here: the platform's notes follow it.)
    await s.db.query(`update organisations set language = 'rus' where id = $1`, [org.id]);
    const top = await org.admin.api.post('/api/finance/top-up', { amount: 500 });
    assert.equal(top.status, 200, JSON.stringify(top.body));
    const providerId = top.body.entity.confirmationUrl.split('/').pop() as string;
    yk.finish(providerId);
    assert.equal(await yk.notify(providerId), 200);
    const paid = (await org.admin.api.get('/api/finance')).body.entity;
    assert.equal(paid.balance, 300, '100 + 500 - 300');
    assert.equal(paid.paidUntil, day());
    assert.equal(paid.state.suspended, false);
    const today = (await org.admin.api.get('/api/finance/payments')).body.entity.items.filter(
      (p: { type: string; status: string }) => p.type === 'charge',
    );
    assert.deepEqual(
      today.map((p: { status: string }) => p.status),
      ['succeeded', 'succeeded'],
      "the day's cancelled charge taken after all, not a second row",
    );
    assert.equal(today[0].notes, `Тариф Extended, ${day()}`);
    const topUps = (await org.admin.api.get('/api/finance/payments')).body.entity.items.filter(
      (p: { type: string }) => p.type === 'top_up',
    );
    assert.deepEqual(
      topUps.map((p: { notes: string }) => p.notes),
      ['Пополнение баланса'],
    );
    assert.equal((await op.api.post(`/api/chats/${first}/messages`, { text: 'Hello' })).status, 200);
    assert.equal(
      (await chatOf(op, second)).operator?.id,
      op.id,
      'the waiting chat goes to the operator online',
    );
  });

  test('a postpaid organisation keeps running into a negative balance; a staff extension lifts a suspension', async () => {
    const post = await customer(day(-1), 'Europe/Moscow', 0, 'Basic', 'postpaid');
    await runDailyCharges(s.app);
    const fin = (await post.admin.api.get('/api/finance')).body.entity;
    assert.deepEqual(
      [fin.balance, fin.paidUntil, fin.state],
      [-100, day(), { serviceUntil: null, suspended: false }],
    );
    // Paid ahead first (nothing due), then no money and due today in one edit: whichever charge run comes first
    // (the test's or the server's own) suspends it.
    const pre = await customer(day(30));
    assert.equal(
      (await staff.patch(`/api/organisations/${pre.id}`, { balance: 0, paidUntil: day(-1) })).status,
      200,
    );
    await runDailyCharges(s.app);
    assert.equal((await pre.admin.api.get('/api/finance')).body.entity.state.suspended, true);
    const ext = await staff.post(`/api/organisations/${pre.id}/extend`);
    assert.equal(ext.status, 200);
    assert.equal(ext.body.entity.suspended, false);
    assert.equal(ext.body.entity.paidUntil, day(13));
  });

  test('the 7-day trial as the daily charge reads it: days 1 to 7 free, the first charge on day 8', async () => {
    const login = `trial-${Date.now()}`;
    const res = await staff.post('/api/organisations', {
      login,
      name: 'Trial',
      adminEmail: `boss@${login}.test`,
      planId: plans.Basic.id,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const org = res.body.entity;
    assert.equal(org.paidUntil, day(6));
    const charges = async () =>
      (
        await s.db.query<{ day: string; status: string }>(
          `select to_char(charge_day, 'YYYY-MM-DD') as day, status from payments where organisation_id = $1 and kind = 'charge'`,
          [org.id],
        )
      ).map((c) => `${c.day} ${c.status}`);
    for (let d = 1; d <= 6; d++) {
      s.clock.advance(DAY);
      await runDailyCharges(s.app);
    }
    assert.deepEqual(await charges(), [], 'the seventh day (today + 6) is still the trial');
    s.clock.advance(DAY);
    await runDailyCharges(s.app);
    assert.deepEqual(await charges(), [`${day()} canceled`], 'day 8: charged (a balance of 0 cannot pay)');
    const listed = (await staff.get('/api/organisations')).body.entity.items.find(
      (o: { id: string }) => o.id === org.id,
    );
    assert.equal(listed.suspended, true);
  });
});
