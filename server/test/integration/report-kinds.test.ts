import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FIELD_MESSAGES, PLAN_OPTIONS } from '@smartconnect/contracts';
import { ManualClock } from '../../src/lib/clock.ts';
import { catchUpRollups } from '../../src/modules/reports/rollup.ts';
import { rebuildRollups } from '../../src/modules/reports/rollup-rebuild.ts';
import {
  createOrganisation,
  createPlatformStaff,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';

const settle = () => new Promise((r) => setTimeout(r, 5));
const H = 3600;

/**
 * The report kinds beside Dialogs: known traffic and presence in, exact figures out, in the organisation's zone
 * (Europe/Moscow, the default) and in Europe/London across its spring DST change (2026-03-29 01:00 UTC).
 *
 * 22:00Z op1 In work; chat A on channel "Alpha" (1 client message), op1 replies after 60 s, closes at 22:30 with
 * category General; 22:30 op1 Break, 23:30 In work; 00:30Z chat B on "Beta" (2 client messages), op1 takes it and
 * closes it at 00:45 without a reply or a category (2 missed); 01:00Z op2 In work (still, at now = 03:00Z);
 * 02:00Z op1 offline.
 */
describe('reports: summary, channels, employees, teams, time, categories', () => {
  let s: TestServer;
  let org: TestOrg;
  let op1: TestUser;
  let op2: TestUser;
  let alpha: TestChannel;
  let beta: TestChannel;
  let teamId: string;
  const at = (iso: string) => s.clock.advance(Date.parse(iso) - s.clock.now().getTime());

  before(async () => {
    s = await startTestServer({ clock: new ManualClock(Date.parse('2026-03-28T21:59:00Z')) });
    org = await createOrganisation(s);
    teamId = await makeTeam(org);
    op1 = await org.user({ teams: [teamId], name: 'Olga' });
    op2 = await org.user({ teams: [teamId], name: 'Ivan' });
    // The accounts existed before the days reported (the database stamps them with its own clock, not the test's).
    await s.db.query(`update users set created_at = '2026-03-01T00:00:00Z' where organisation_id = $1`, [
      org.id,
    ]);
    alpha = await makeChannel(org, teamId, { name: 'Alpha' });
    beta = await makeChannel(org, teamId, { name: 'Beta' });
    const categoryId = (await org.admin.api.post('/api/categories', { name: 'General' })).body.entity.id;
    const ok = (res: { status: number; body: unknown }, what: string) =>
      assert.equal(res.status, 200, `${what}: ${JSON.stringify(res.body)}`);
    const take = async (u: TestUser, chatId: string) => {
      const res = await u.api.post(`/api/chats/${chatId}/take`, {});
      if (res.status !== 409) ok(res, 'take');
    };

    at('2026-03-28T22:00:00Z');
    await goOnline(op1);
    const a = (await inbound(s, alpha, { client: 'client-a', text: 'Hello' })).body.entity.chatId as string;
    await take(op1, a);
    s.clock.advance(60_000);
    ok(await op1.api.post(`/api/chats/${a}/messages`, { text: 'Hi A' }), 'reply a');
    at('2026-03-28T22:30:00Z');
    ok(await op1.api.post(`/api/chats/${a}/close`, { categoryId }), 'close a');
    await goOnline(op1, 'break');
    at('2026-03-28T23:30:00Z');
    await goOnline(op1);
    at('2026-03-29T00:30:00Z');
    const b = (await inbound(s, beta, { client: 'client-b', text: 'Anyone?' })).body.entity.chatId as string;
    s.clock.advance(60_000);
    ok(await inbound(s, beta, { client: 'client-b', text: 'Hello?' }), 'b again');
    await take(op1, b);
    at('2026-03-29T00:45:00Z');
    // Requests without a category exist where the plan has no OPTION_CATEGORY (closing needs one otherwise).
    await s.db.query(
      `update organisations set options = array_remove(options, 'OPTION_CATEGORY') where id = $1`,
      [org.id],
    );
    ok(await op1.api.post(`/api/chats/${b}/close`, {}), 'close b');
    await s.db.query(
      `update organisations set options = array_append(options, 'OPTION_CATEGORY') where id = $1`,
      [org.id],
    );
    at('2026-03-29T01:00:00Z');
    await goOnline(op2);
    at('2026-03-29T02:00:00Z');
    await goOnline(op1, 'offline');
    at('2026-03-29T03:00:00Z');
    await settle();
    await catchUpRollups(s.db, { lagMs: 0 });
  });
  after(() => s.close());

  const get = (kind: string, qs: string, u: TestUser = org.admin) => u.api.get(`/api/reports/${kind}?${qs}`);
  const entity = async (kind: string, qs: string) => {
    const res = await get(kind, qs);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity;
  };
  type Row = { kind: string; name: string; [k: string]: unknown };
  const named = (rows: Row[], kind: string, name: string) => {
    const r = rows.find((x) => x.kind === kind && x.name === name);
    assert.ok(r, `${kind} ${name}`);
    const { id: _id, ...rest } = r;
    return rest;
  };

  test("summary in the organisation's zone (Europe/Moscow by default): channels and operators", async () => {
    const r = await entity('summary', 'period=date&from=2026-03-29');
    assert.equal(r.period.timeZone, 'Europe/Moscow');
    assert.equal(r.period.start, '2026-03-28T21:00:00.000Z');
    assert.deepEqual(named(r.rows, 'channel', 'Alpha'), {
      kind: 'channel',
      name: 'Alpha',
      onlineSeconds: null,
      breakSeconds: null,
      dialogs: 1,
      acceptedMessages: 1,
      missedMessages: 0,
    });
    assert.deepEqual(named(r.rows, 'channel', 'Beta'), {
      kind: 'channel',
      name: 'Beta',
      onlineSeconds: null,
      breakSeconds: null,
      dialogs: 1,
      acceptedMessages: 2,
      missedMessages: 2,
    });
    assert.deepEqual(named(r.rows, 'operator', 'Olga'), {
      kind: 'operator',
      name: 'Olga',
      onlineSeconds: 3 * H,
      breakSeconds: H,
      dialogs: 2,
      acceptedMessages: 3,
      missedMessages: 2,
    });
    // Ivan is still In work: his open interval counts up to now.
    assert.deepEqual(named(r.rows, 'operator', 'Ivan'), {
      kind: 'operator',
      name: 'Ivan',
      onlineSeconds: 2 * H,
      breakSeconds: 0,
      dialogs: 0,
      acceptedMessages: 0,
      missedMessages: 0,
    });
  });

  test('summary in London: the two local days split at local midnight; the 29th is 23 hours long', async () => {
    const d28 = await entity('summary', 'period=date&from=2026-03-28&timeZone=Europe/London');
    const olga28 = named(d28.rows, 'operator', 'Olga');
    assert.deepEqual([olga28.onlineSeconds, olga28.breakSeconds, olga28.dialogs], [H, H, 1]);
    assert.equal(named(d28.rows, 'channel', 'Beta').dialogs, 0);
    const d29 = await entity('summary', 'period=date&from=2026-03-29&timeZone=Europe/London');
    assert.equal(Date.parse(d29.period.end) - Date.parse(d29.period.start), 23 * H * 1000);
    const olga29 = named(d29.rows, 'operator', 'Olga');
    assert.deepEqual([olga29.onlineSeconds, olga29.breakSeconds, olga29.dialogs], [2 * H, 0, 1]);
    assert.equal(named(d29.rows, 'operator', 'Ivan').onlineSeconds, 2 * H);
    assert.equal(named(d29.rows, 'channel', 'Alpha').dialogs, 0);
  });

  test('the CSV export is exactly the summary rows; XLSX is a SpreadsheetML package of the same cells', async () => {
    const qs = 'period=custom&from=2026-03-28&to=2026-03-29&timeZone=Europe/London';
    const rows = (await entity('summary', qs)).rows as Row[];
    const res = await fetch(`${s.url}/api/reports/summary/export?${qs}&format=csv`, {
      headers: { authorization: `Bearer ${org.admin.token}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(res.headers.get('content-disposition') ?? '', /summary-2026-03-28_2026-03-29\.csv/);
    const text = (await res.text()).replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\r\n');
    assert.equal(lines[0], 'Type,Name,Online time,Break time,Dialogs,Accepted messages,Missed messages');
    const hms = (n: unknown) =>
      n === null
        ? ''
        : `${Math.floor(Number(n) / 3600)}:${String(Math.floor((Number(n) % 3600) / 60)).padStart(2, '0')}:${String(Number(n) % 60).padStart(2, '0')}`;
    assert.deepEqual(
      lines.slice(1),
      rows.map((r) =>
        [
          r.kind === 'channel' ? 'Channel' : 'Operator',
          r.name,
          hms(r.onlineSeconds),
          hms(r.breakSeconds),
          r.dialogs,
          r.acceptedMessages,
          r.missedMessages,
        ].join(','),
      ),
    );
    assert.ok(lines.includes('Operator,Olga,3:00:00,1:00:00,2,3,2'), lines.join('\n'));

    const x = await fetch(`${s.url}/api/reports/summary/export?${qs}&format=xlsx`, {
      headers: { authorization: `Bearer ${org.admin.token}` },
    });
    assert.equal(x.status, 200);
    assert.equal(
      x.headers.get('content-type'),
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const buf = Buffer.from(await x.arrayBuffer());
    assert.equal(buf.readUInt32LE(0), 0x04034b50, 'a zip');
    const body = buf.toString('utf8');
    for (const part of ['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml'])
      assert.ok(body.includes(part), part);
    assert.ok(body.includes('<t xml:space="preserve">Olga</t>'));
    assert.equal((body.match(/<row /g) ?? []).length, rows.length + 1);
  });

  test('channels, employees and teams: the Dialogs figures per row', async () => {
    const qs = 'period=custom&from=2026-03-28&to=2026-03-29&timeZone=Europe/London';
    const channels = (await entity('channels', qs)).rows;
    assert.deepEqual(
      channels.map((r: Row & { dialogsNew: number; dialogsClosed: number; messagesIn: number }) => [
        r.name,
        r.dialogsNew,
        r.dialogsClosed,
        r.messagesIn,
      ]),
      [
        ['Alpha', 1, 1, 1],
        ['Beta', 1, 1, 2],
      ],
    );
    assert.equal(channels[0].firstResponse.count, 1);
    assert.equal(channels[0].firstResponse.avgSeconds, 60);
    assert.equal(channels[0].handling.avgSeconds, 30 * 60);
    const employees = (await entity('employees', qs)).rows;
    assert.deepEqual(
      employees.map((r: Row & { dialogsClosed: number; messagesOut: number }) => [
        r.name,
        r.dialogsClosed,
        r.messagesOut,
      ]),
      [['Olga', 2, 1]],
    );
    assert.equal(employees[0].id, op1.id);
    assert.equal(employees[0].firstResponse.medianSeconds, 75); // one value in [60, 90): its middle
    const teams = (await entity('teams', qs)).rows;
    assert.equal(teams.length, 1);
    assert.equal(teams[0].id, teamId);
    assert.deepEqual([teams[0].dialogsNew, teams[0].dialogsClosed], [2, 2]);
    // The day before in London has only chat A.
    const d28 = (await entity('channels', 'period=date&from=2026-03-28&timeZone=Europe/London')).rows;
    assert.deepEqual(
      d28.map((r: Row) => r.name),
      ['Alpha'],
    );
  });

  test('working time: intervals per operator in two zones, cut at now', async () => {
    const london = (await entity('time', 'period=date&from=2026-03-28&timeZone=Europe/London')).rows;
    const olga = london.find((r: Row) => r.name === 'Olga');
    assert.deepEqual(olga.intervals, [
      { state: 'offline', start: '2026-03-28T00:00:00.000Z', end: '2026-03-28T22:00:00.000Z' },
      { state: 'online', start: '2026-03-28T22:00:00.000Z', end: '2026-03-28T22:30:00.000Z' },
      { state: 'break', start: '2026-03-28T22:30:00.000Z', end: '2026-03-28T23:30:00.000Z' },
      { state: 'online', start: '2026-03-28T23:30:00.000Z', end: '2026-03-29T00:00:00.000Z' },
    ]);
    assert.deepEqual([olga.onlineSeconds, olga.breakSeconds, olga.offlineSeconds], [H, H, 22 * H]);
    const moscow = (await entity('time', 'period=date&from=2026-03-29')).rows;
    const olgaM = moscow.find((r: Row) => r.name === 'Olga');
    assert.deepEqual(
      olgaM.intervals.map((i: { state: string }) => i.state),
      ['offline', 'online', 'break', 'online', 'offline'],
    );
    assert.equal(olgaM.intervals.at(-1).end, '2026-03-29T03:00:00.000Z');
    assert.deepEqual([olgaM.onlineSeconds, olgaM.breakSeconds, olgaM.offlineSeconds], [3 * H, H, 2 * H]);
    const ivan = moscow.find((r: Row) => r.name === 'Ivan');
    assert.deepEqual(ivan.intervals, [
      { state: 'offline', start: '2026-03-28T21:00:00.000Z', end: '2026-03-29T01:00:00.000Z' },
      { state: 'online', start: '2026-03-29T01:00:00.000Z', end: '2026-03-29T03:00:00.000Z' },
    ]);
    // An account created during the day counts from its creation, not as offline since midnight.
    const nina = await org.user({ teams: [teamId], name: 'Nina' });
    await s.db.query(`update users set created_at = '2026-03-28T23:00:00Z' where id = $1`, [nina.id]);
    const withNina = (await entity('time', 'period=date&from=2026-03-28&timeZone=Europe/London')).rows;
    assert.deepEqual(withNina.find((r: Row) => r.name === 'Nina').intervals, [
      { state: 'offline', start: '2026-03-28T23:00:00.000Z', end: '2026-03-29T00:00:00.000Z' },
    ]);
    assert.equal(withNina.find((r: Row) => r.name === 'Nina').offlineSeconds, H);
    await s.db.query('update users set active = false where id = $1', [nina.id]);
    // A day with no change at all keeps the state the next change left.
    const before = (await entity('time', 'period=date&from=2026-03-27&timeZone=Europe/London')).rows;
    assert.deepEqual(
      before.find((r: Row) => r.name === 'Olga').intervals.map((i: { state: string }) => i.state),
      ['offline'],
    );
  });

  test('categories by channel, with and without the requests that have none', async () => {
    const qs = 'period=custom&from=2026-03-28&to=2026-03-29';
    const strip = (rows: { channelName: string; categoryName: string | null; requests: number }[]) =>
      rows.map((r) => [r.channelName, r.categoryName, r.requests]);
    assert.deepEqual(strip((await entity('categories', qs)).rows), [['Alpha', 'General', 1]]);
    assert.deepEqual(strip((await entity('categories', `${qs}&includeWithoutCategory=true`)).rows), [
      ['Alpha', 'General', 1],
      ['Beta', null, 1],
    ]);
    assert.deepEqual(
      strip((await entity('categories', `${qs}&includeWithoutCategory=true&channelId=${beta.id}`)).rows),
      [['Beta', null, 1]],
    );
  });

  test("the organisation's time zone, set by platform staff, is the reports' default", async () => {
    const staff = await createPlatformStaff(s);
    const bad = await staff.patch(`/api/organisations/${org.id}`, { timeZone: 'Mars/Base' });
    assert.equal(bad.status, 400);
    const set = await staff.patch(`/api/organisations/${org.id}`, { timeZone: 'Europe/London' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.entity.timeZone, 'Europe/London');
    assert.equal((await org.admin.api.get('/api/organisation')).body.entity.timeZone, 'Europe/London');
    const r = await entity('summary', 'period=date&from=2026-03-28');
    assert.equal(r.period.timeZone, 'Europe/London');
    assert.equal(named(r.rows, 'operator', 'Olga').onlineSeconds, H);
    await staff.patch(`/api/organisations/${org.id}`, { timeZone: 'Europe/Moscow' });
  });

  test("the organisation's administrator sets its time zone; a wrong name is a field error; others are refused", async () => {
    const bad = await org.admin.api.patch('/api/organisation', { timeZone: 'Mars/Base' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validationException');
    assert.equal(bad.body.error.fields.timeZone, FIELD_MESSAGES.valueIncorrect);
    // RIGHT_ACCOUNT_CONTROL: an operator and a supervisor (who sees every report) may not change it.
    const supervisor = await org.user({ role: 'SUPERVISOR', name: 'Sveta' });
    for (const u of [op1, supervisor]) {
      const refused = await u.api.patch('/api/organisation', { timeZone: 'Europe/London' });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'accessDeniedException');
    }
    assert.equal((await org.admin.api.get('/api/organisation')).body.entity.timeZone, 'Europe/Moscow');
    const other = await createOrganisation(s);
    const set = await org.admin.api.patch('/api/organisation', { timeZone: 'Europe/London' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.entity.timeZone, 'Europe/London');
    assert.equal((await other.admin.api.get('/api/organisation')).body.entity.timeZone, 'Europe/Moscow');
    const r = await entity('summary', 'period=date&from=2026-03-28');
    assert.equal(r.period.timeZone, 'Europe/London');
    assert.equal(named(r.rows, 'operator', 'Olga').onlineSeconds, H);
    await org.admin.api.patch('/api/organisation', { timeZone: 'Europe/Moscow' });
  });

  test('a rebuild from history gives the same figures for every kind', async () => {
    const qs =
      'period=custom&from=2026-03-28&to=2026-03-29&timeZone=Europe/London&includeWithoutCategory=true';
    const kinds = ['summary', 'channels', 'employees', 'teams', 'time', 'categories'];
    const before = await Promise.all(kinds.map((k) => entity(k, qs)));
    await rebuildRollups(s.db, { lagMs: 0 });
    assert.deepEqual(await Promise.all(kinds.map((k) => entity(k, qs))), before);
  });

  test("rights, 'Statistics only in the extended tariff', isolation", async () => {
    for (const kind of [
      'summary',
      'channels',
      'employees',
      'teams',
      'time',
      'categories',
      'summary/export',
    ]) {
      const denied = await get(kind, 'period=today', op1);
      assert.equal(denied.status, 403, kind);
      assert.equal(denied.body.code, 'accessDeniedException');
    }
    const poor = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_STATISTIC'),
    });
    const refused = await get('summary', 'period=last30', poor.admin);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'statisticsUnavailableException');
    assert.equal(refused.body.error.message, 'Statistics only in the extended tariff');
    const other = await createOrganisation(s);
    const qs = `period=custom&from=2026-03-28&to=2026-03-29&includeWithoutCategory=true&channelId=${alpha.id}`;
    for (const kind of ['channels', 'employees', 'teams', 'categories'])
      assert.deepEqual(
        (await entity(kind, qs).catch(() => null)) && (await get(kind, qs, other.admin)).body.entity.rows,
        [],
        kind,
      );
    const sum = (await get('summary', qs, other.admin)).body.entity.rows as Row[];
    assert.ok(!sum.some((r) => r.name === 'Olga' || r.name === 'Alpha'));
    assert.equal((await get('summary', 'period=today&timeZone=Mars/Base')).status, 400);
  });
});
