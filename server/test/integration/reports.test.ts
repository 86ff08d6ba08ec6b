import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { ManualClock } from '../../src/lib/clock.ts';
import { advanceRollups, catchUpRollups } from '../../src/modules/reports/rollup.ts';
import { rebuildRollups } from '../../src/modules/reports/rollup-rebuild.ts';
import {
  createOrganisation,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';

const MIN = 60_000;
const settle = () => new Promise((r) => setTimeout(r, 5));

/**
 * Reports from the hourly rollups: known traffic in, exact figures out, in two time zones across the spring DST
 * change of Europe/London (2026-03-29 01:00 UTC); the same figures after folding one row at a time, and after a
 * rebuild; rights, plan option and isolation.
 */
describe('reports: dialogs', () => {
  let s: TestServer;
  let org: TestOrg;
  let op1: TestUser;
  let op2: TestUser;
  let ch: TestChannel;
  let categoryId: string;
  before(async () => {
    s = await startTestServer({ clock: new ManualClock(Date.parse('2026-03-28T23:00:00Z')) });
    org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    op1 = await org.user({ teams: [teamId], name: 'Olga' });
    op2 = await org.user({ teams: [teamId], name: 'Ivan' });
    ch = await makeChannel(org, teamId);
    categoryId = (await org.admin.api.post('/api/categories', { name: 'General' })).body.entity.id;
    const assess = await org.admin.api.patch(`/api/channels/${ch.id}`, {
      assessment: { enabled: true, text: 'Rate us' },
    });
    assert.equal(assess.status, 200, JSON.stringify(assess.body));

    const ok = (res: { status: number; body: unknown }, what: string) =>
      assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    const open = async (client: string) => {
      const res = await inbound(s, ch, { client, text: 'Hello' });
      ok(res, 'inbound');
      return res.body.entity.chatId as string;
    };
    // Taking a chat puts Olga in work, so the next chat may already be routed to her.
    const take = async (u: TestUser, chatId: string) => {
      const res = await u.api.post(`/api/chats/${chatId}/take`, {});
      if (res.status === 409) {
        const chat = (await org.admin.api.get(`/api/chats/${chatId}`)).body.entity;
        assert.equal(chat.operator?.id, u.id, JSON.stringify(chat));
      } else ok(res, 'take');
    };
    const rate = async (chatId: string, score: number) => {
      const items = (await org.admin.api.get(`/api/chats/${chatId}/messages?limit=100`)).body.entity
        .items as {
        text: string;
      }[];
      const uuid = items.map((m) => /\/link-action\/([0-9a-f-]{36})$/m.exec(m.text)?.[1]).find(Boolean);
      assert.ok(uuid, 'a rating link was sent');
      ok(await s.api.post(`/api/link-actions/${uuid}`, { score }), 'rate');
    };

    // Chat A, 28 March 23:00 UTC (23:00 GMT in London): Olga answers after 90 s, closes after 20 min; rated 5.
    const a = await open('client-a');
    await take(op1, a);
    s.clock.advance(90_000);
    ok(await op1.api.post(`/api/chats/${a}/messages`, { text: 'Hi A' }), 'reply a');
    await op1.api.post(`/api/chats/${a}/messages`, { text: 'note', internal: true });
    s.clock.advance(10_000);
    ok(await inbound(s, ch, { client: 'client-a', text: 'Thanks' }), 'a again');
    s.clock.advance(20 * MIN);
    ok(await op1.api.post(`/api/chats/${a}/close`, { categoryId }), 'close a');
    await rate(a, 5);

    // Chat B, 29 March 00:30 UTC: Olga answers after 30 s and transfers to Ivan, who closes at 01:30 UTC (after
    // the change: 02:30 BST). Rated 3.
    s.clock.advance(Date.parse('2026-03-29T00:30:00Z') - s.clock.now().getTime());
    const b = await open('client-b');
    await take(op1, b);
    s.clock.advance(30_000);
    ok(await op1.api.post(`/api/chats/${b}/messages`, { text: 'Hi B' }), 'reply b');
    await goOnline(op2);
    ok(await op1.api.post(`/api/chats/${b}/transfer`, { operatorId: op2.id }), 'transfer b');
    s.clock.advance(Date.parse('2026-03-29T01:30:00Z') - s.clock.now().getTime());
    ok(await op2.api.post(`/api/chats/${b}/messages`, { text: 'Ivan here' }), 'reply b2');
    ok(await op2.api.post(`/api/chats/${b}/close`, { categoryId }), 'close b');
    await rate(b, 3);

    // Chat C, 29 March 23:30 UTC = 30 March 00:30 BST: still open, nobody answered.
    s.clock.advance(Date.parse('2026-03-29T23:30:00Z') - s.clock.now().getTime());
    await open('client-c');
    s.clock.advance(Date.parse('2026-03-30T10:00:00Z') - s.clock.now().getTime());
    await settle();
    await catchUpRollups(s.db, { lagMs: 0 });
  });
  after(() => s.close());

  const report = (u: TestUser, qs: string) => u.api.get(`/api/reports/dialogs?${qs}`);
  const days = (body: { series: { label: string; dialogsNew: number }[] }) =>
    Object.fromEntries(body.series.map((p) => [p.label, p.dialogsNew]));

  test('known traffic gives exact totals and a day series in London time across the DST change', async () => {
    const res = await report(org.admin, 'period=custom&from=2026-03-28&to=2026-03-30&timeZone=Europe/London');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const r = res.body.entity;
    assert.deepEqual(r.period, {
      from: '2026-03-28',
      to: '2026-03-30',
      start: '2026-03-28T00:00:00.000Z',
      end: '2026-03-30T23:00:00.000Z',
      timeZone: 'Europe/London',
    });
    const t = r.totals;
    assert.deepEqual(
      [t.dialogsNew, t.dialogsClosed, t.dialogsTransferred, t.messagesIn, t.messagesOut],
      [3, 2, 1, 4, 3],
    );
    assert.deepEqual(t.ratings, [0, 0, 1, 0, 1]);
    assert.equal(t.ratingAverage, 4);
    assert.equal(t.firstResponse.count, 2);
    assert.equal(t.firstResponse.avgSeconds, 60); // (90 + 30) / 2
    assert.equal(t.handling.count, 2);
    assert.equal(t.handling.avgSeconds, (1300 + 3600) / 2);
    assert.ok(t.firstResponse.medianSeconds >= 30 && t.firstResponse.medianSeconds <= 90);
    assert.ok(t.handling.p90Seconds >= 2700 && t.handling.p90Seconds <= 5400);
    assert.deepEqual(days(r), { '2026-03-28': 1, '2026-03-29': 1, '2026-03-30': 1 });
    assert.equal(r.series[0].dialogsClosed, 1);
    assert.equal(r.series[1].dialogsTransferred, 1);
  });

  test('the same traffic by UTC days, and by hour on the 23-hour London day', async () => {
    const utc = (await report(org.admin, 'period=custom&from=2026-03-28&to=2026-03-30&timeZone=UTC')).body
      .entity;
    assert.deepEqual(days(utc), { '2026-03-28': 1, '2026-03-29': 2, '2026-03-30': 0 });
    // Without a zone the days are the organisation's (Europe/Moscow, UTC+3, by default).
    const org3 = (await report(org.admin, 'period=custom&from=2026-03-28&to=2026-03-30')).body.entity;
    assert.equal(org3.period.timeZone, 'Europe/Moscow');
    assert.deepEqual(days(org3), { '2026-03-28': 0, '2026-03-29': 2, '2026-03-30': 1 });
    const hours = (await report(org.admin, 'period=date&from=2026-03-29&timeZone=Europe/London&groupBy=hour'))
      .body.entity;
    assert.equal(hours.series.length, 23);
    assert.deepEqual(
      hours.series.slice(0, 3).map((p: { label: string }) => p.label),
      ['2026-03-29 00:00', '2026-03-29 02:00', '2026-03-29 03:00'],
    );
    assert.equal(hours.series[0].dialogsNew, 1);
    assert.equal(hours.series[1].dialogsClosed, 1);
    // "today" and "yesterday" follow the clock (30 March 10:00 UTC).
    const today = (await report(org.admin, 'period=today&timeZone=Europe/London')).body.entity;
    assert.equal(today.totals.dialogsNew, 1);
    const yesterday = (await report(org.admin, 'period=yesterday')).body.entity;
    assert.equal(yesterday.totals.dialogsNew, 2);
  });

  test('folding one row at a time (a restart between any two batches) and a rebuild give the same figures', async () => {
    const qs = 'period=last7&timeZone=Europe/London&groupBy=hour';
    const before = (await report(org.admin, qs)).body.entity;
    // In the organisation's own zone the daily rollups answer; they must agree with the hourly ones.
    const daily = 'period=last7';
    const beforeDaily = (await report(org.admin, daily)).body.entity;
    assert.ok(beforeDaily.totals.dialogsNew > 0);
    const hourlyInZone = (await report(org.admin, `${daily}&groupBy=hour`)).body.entity;
    assert.deepEqual(hourlyInZone.totals, beforeDaily.totals);
    await rebuildRollups(s.db, { lagMs: 0 });
    assert.deepEqual((await report(org.admin, qs)).body.entity, before);
    assert.deepEqual((await report(org.admin, daily)).body.entity, beforeDaily);
    // Reset and fold by single rows (every third step a batch of two). The job runner stops first: its own folding
    // would take every row in one batch whenever its poll came between the reset and this loop.
    await s.jobs.stop();
    await s.db.query(`delete from report_dialog_hourly`);
    await s.db.query(`delete from report_duration_hist`);
    await s.db.query(`delete from report_dialog_daily`);
    await s.db.query(`delete from report_duration_daily`);
    await s.db.query(`update report_cursors set last_id = '00000000-0000-0000-0000-000000000000'`);
    let n = 0;
    while ((await advanceRollups(s.db, { lagMs: 0, batch: 1 })) > 0) {
      n++;
      if (n % 3 === 0) await advanceRollups(s.db, { lagMs: 0, batch: 2 });
    }
    assert.ok(n > 5);
    assert.deepEqual((await report(org.admin, qs)).body.entity, before);
    assert.deepEqual((await report(org.admin, daily)).body.entity, beforeDaily);
    // Folding again when caught up changes nothing.
    await catchUpRollups(s.db, { lagMs: 0 });
    assert.deepEqual((await report(org.admin, qs)).body.entity, before);
  });

  test("an operator sees only their own figures on /report; the organisation's report needs AUTHORITY_ALL_STAT", async () => {
    const qs = 'period=custom&from=2026-03-28&to=2026-03-30&timeZone=Europe/London';
    const denied = await report(op1, qs);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'accessDeniedException');
    const own1 = (await op1.api.get(`/api/reports/own/dialogs?${qs}`)).body.entity.totals;
    assert.deepEqual([own1.dialogsClosed, own1.dialogsTransferred, own1.messagesOut], [1, 1, 2]);
    assert.equal(own1.firstResponse.count, 2);
    assert.deepEqual(own1.ratings, [0, 0, 0, 0, 1]);
    const own2 = (await op2.api.get(`/api/reports/own/dialogs?${qs}`)).body.entity.totals;
    assert.deepEqual([own2.dialogsClosed, own2.dialogsTransferred, own2.messagesOut], [1, 0, 1]);
    assert.deepEqual(own2.ratings, [0, 0, 1, 0, 0]);
    assert.equal(own2.firstResponse.count, 0);
    // A filter to someone else is ignored on the own report.
    const forced = (await op2.api.get(`/api/reports/own/dialogs?${qs}&operatorId=${op1.id}`)).body.entity
      .totals;
    assert.deepEqual(forced, own2);
  });

  test('a period or a start and end date is required; bad zones and dates are 400', async () => {
    for (const qs of ['', 'period=custom&from=2026-03-01', 'period=date', 'from=2026-03-02&to=2026-03-01']) {
      const res = await report(org.admin, qs);
      assert.equal(res.status, 400, qs);
      assert.equal(res.body.code, 'validationException');
    }
    const missing = await report(org.admin, '');
    assert.equal(
      missing.body.error.fields.period,
      'A report requires a start and end date or a chosen period',
    );
    assert.equal((await report(org.admin, 'period=today&timeZone=Mars/Base')).status, 400);
    assert.equal((await report(org.admin, 'from=2024-01-01&to=2026-01-01')).status, 400);
    assert.equal((await report(org.admin, 'from=2026-03-28&to=2026-03-28')).status, 200);
  });

  test('without OPTION_STATISTIC the report is refused; another organisation sees none of these figures', async () => {
    const poor = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_STATISTIC'),
    });
    const refused = await report(poor.admin, 'period=last30');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'statisticsUnavailableException');
    assert.equal(refused.body.error.message, 'Statistics only in the extended tariff');
    // The own report is not a plan feature.
    assert.equal((await poor.admin.api.get('/api/reports/own/dialogs?period=last30')).status, 200);
    const other = await createOrganisation(s);
    const r = (await report(other.admin, 'period=custom&from=2026-03-28&to=2026-03-30')).body.entity.totals;
    assert.deepEqual([r.dialogsNew, r.dialogsClosed, r.messagesIn, r.firstResponse.count], [0, 0, 0, 0]);
    const spy = (await report(other.admin, `period=last30&operatorId=${op1.id}&channelId=${ch.id}`)).body
      .entity;
    assert.equal(spy.totals.messagesOut, 0);
  });
});
