import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { crc32, deflateRawSync } from 'node:zlib';
import type { SmsImportDto } from '@smartconnect/contracts';
import { tableXlsx } from '../../src/lib/table-file.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

/** Windows-1251 bytes of a text (the Cyrillic letters and ASCII the fixtures use). */
function cp1251(text: string): Buffer {
  const out: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) out.push(c);
    else if (c >= 0x410 && c <= 0x44f) out.push(c - 0x410 + 0xc0);
    else if (c === 0x401) out.push(0xa8);
    else if (c === 0x451) out.push(0xb8);
    else throw new Error(`no cp1251 byte for ${ch}`);
  }
  return Buffer.from(out);
}

async function waitFor<T>(check: () => Promise<T | false | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function smsChannel(org: TestOrg, teamId: string, service: 'smsru' | 'smsc' | 'other') {
  const res = await org.admin.api.post('/api/channels', {
    type: 'sms',
    name: `SMS ${service} ${Math.random()}`,
    teamId,
    service,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return {
    id: res.body.entity.id as string,
    key: res.body.entity.inboundKey as string,
    url: res.body.entity.inboundUrl as string,
  };
}

async function upload(org: TestOrg, channelId: string, file: Buffer, name: string, mapping?: object) {
  const form = new FormData();
  form.set('channelId', channelId);
  if (mapping) form.set('mapping', JSON.stringify(mapping));
  form.set('file', new Blob([new Uint8Array(file)]), name);
  return org.admin.api.post('/api/sms-imports', form);
}

const done = (org: TestOrg, id: string) =>
  waitFor(async () => {
    const r = (await org.admin.api.get(`/api/sms-imports/${id}`)).body.entity as SmsImportDto;
    return r.status === 'done' || r.status === 'failed' ? r : false;
  });

describe('SMS-system import', { timeout: 60_000 }, () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s.close();
  });

  test('an SMS.ru export in Windows-1251 lands in the clients histories; the same file again adds nothing', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await smsChannel(org, teamId, 'smsru');
    // A client who already wrote from another channel with this phone gets the SMS in their own history.
    const api = await makeChannel(org, teamId);
    const known = (await inbound(s, api, { client: 'k1', name: 'Known Client', text: 'hello' })).body.entity
      .chatId;
    const knownClient = (await org.admin.api.get(`/api/chats/${known}`)).body.entity.client.id;
    await s.db.query("update contacts set phone = '+79161112233' where client_id = $1", [knownClient]);
    const csv = cp1251(
      [
        'ID сообщения;Номер получателя;Текст сообщения;Дата отправки;Статус доставки;Стоимость',
        '201911-1000001;79161112233;"Ваш заказ готов.\nЖдём вас!";27.11.2026 10:15:00;Доставлено;3.5',
        '201911-1000002;8 (916) 444-55-66;Скидка 10%;27.11.2026 11:00;Не доставлено;3.5',
        '201911-1000003;abc;Текст;27.11.2026 11:00;Доставлено;3.5',
        '201911-1000004;79160000000;;27.11.2026 11:00;Доставлено;3.5',
        '201911-1000005;79160000001;Когда?;вчера;Доставлено;3.5',
      ].join('\r\n'),
    );
    const res = await upload(org, ch.id, csv, 'smsru.csv');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const created = res.body.entity as SmsImportDto;
    assert.equal(created.detected, 'smsru');
    assert.equal(created.encoding, 'windows-1251');
    assert.equal(created.status, 'running');
    assert.equal(created.totalRows, 5);
    const first = await done(org, created.id);
    assert.equal(first.status, 'done');
    assert.equal(first.imported, 2);
    assert.equal(first.duplicates, 0);
    assert.equal(first.refused, 3);
    // Lines: the header is 1, the quoted newline makes the first row take lines 2-3.
    assert.deepEqual(first.refusals, [
      { line: 5, reason: 'phone' },
      { line: 6, reason: 'text' },
      { line: 7, reason: 'time' },
    ]);
    // The known client's history has the SMS, delivered, at its time in Moscow (the organisation's zone).
    const { rows } = {
      rows: await s.db.query<{
        text: string;
        status: string;
        kind: string;
        created_at: Date;
        client_id: string;
        imported: boolean;
        chat_status: string;
      }>(
        `select m.text, m.status, m.kind, m.created_at, c.client_id, c.imported, c.status as chat_status
           from messages m join chats c on c.id = m.chat_id where m.channel_id = $1 order by m.created_at`,
        [ch.id],
      ),
    };
    assert.equal(rows.length, 2);
    assert.equal(rows[0].text, 'Ваш заказ готов.\nЖдём вас!');
    assert.equal(rows[0].status, 'delivered');
    assert.equal(rows[0].kind, 'mailing');
    assert.equal(rows[0].client_id, knownClient);
    assert.equal(rows[0].imported, true);
    assert.equal(rows[0].chat_status, 'closed');
    assert.equal(new Date(rows[0].created_at).toISOString(), '2026-11-27T07:15:00.000Z');
    assert.equal(rows[1].status, 'undelivered');
    // The new client is named by the phone, which is kept on their profile.
    const [fresh] = await s.db.query<{ name: string; phone: string }>(
      `select cl.name, cc.value as phone from clients cl join client_contacts cc on cc.client_id = cl.id
        where cl.id = (select client_id from contacts where channel_id = $1 and external_id = '79164445566')`,
      [ch.id],
    );
    assert.deepEqual(fresh, { name: '+79164445566', phone: '+79164445566' });
    // Not a dialog: the closed list leaves the history chats out (the known client's closed dialog is in it).
    await s.db.query("update chats set status = 'closed', closed_at = now() where id = $1", [known]);
    const closed = (await org.admin.api.get('/api/chats?filter=closed')).body.entity.items as {
      id: string;
      channel: { id: string };
    }[];
    assert.ok(closed.some((c) => c.id === known));
    assert.ok(!closed.some((c) => c.channel.id === ch.id));

    const again = await done(org, (await upload(org, ch.id, csv, 'smsru.csv')).body.entity.id);
    assert.equal(again.imported, 0);
    assert.equal(again.duplicates, 2);
    assert.equal(again.refused, 3);
    const [{ n }] = await s.db.query<{ n: number }>(
      'select count(*)::int as n from messages where channel_id = $1',
      [ch.id],
    );
    assert.equal(n, 2);
  });

  test('an unknown header waits for its columns, which are remembered for the next file', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await smsChannel(org, teamId, 'other');
    const xlsx = tableXlsx(
      ['Кому', 'Что', 'Когда'],
      [
        ['+7 916 000-11-22', 'Привет', '2026-11-27 09:00'],
        ['+7 916 000-11-23', 'Привет', '46353.5'],
      ],
      'Sheet1',
    );
    const res = await upload(org, ch.id, xlsx, 'out.xlsx');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const waiting = res.body.entity as SmsImportDto;
    assert.equal(waiting.status, 'mapping');
    assert.equal(waiting.format, 'xlsx');
    assert.deepEqual(waiting.columns, ['Кому', 'Что', 'Когда']);
    assert.equal(waiting.sample.length, 2);
    // A column that is not in the file is refused.
    const bad = await org.admin.api.post(`/api/sms-imports/${waiting.id}/start`, {
      mapping: { phone: 0, text: 7 },
    });
    assert.equal(bad.status, 400);
    const started = await org.admin.api.post(`/api/sms-imports/${waiting.id}/start`, {
      mapping: { phone: 0, text: 1, sentAt: 2 },
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const result = await done(org, waiting.id);
    assert.equal(result.imported, 2);
    // Started once: a second start is refused.
    const twice = await org.admin.api.post(`/api/sms-imports/${waiting.id}/start`, {
      mapping: { phone: 0, text: 1 },
    });
    assert.equal(twice.status, 409);
    const next = (await upload(org, ch.id, xlsx, 'out-2.xlsx')).body.entity as SmsImportDto;
    assert.equal(next.detected, 'remembered');
    assert.equal(next.status, 'running');
    assert.equal((await done(org, next.id)).duplicates, 2);
  });

  test("the service's callbacks: JSON SMS, SMS.ru and SMSC.ru statuses, with the channel's key only", async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ru = await smsChannel(org, teamId, 'smsru');
    const post = (ch: { url: string; key: string }, body: string, type: string, key = ch.key) =>
      fetch(`${s.url}${ch.url}?key=${encodeURIComponent(key)}`, {
        method: 'POST',
        headers: { 'content-type': type },
        body,
      });
    const json = (b: object) => JSON.stringify(b);
    // Our JSON: two SMS (one twice), one refused; a retry adds nothing.
    const sms = {
      messages: [
        {
          id: 'a1',
          phone: '+7 916 555-00-01',
          text: 'Код 1234',
          sentAt: '2026-11-27T10:00:00Z',
          status: '102',
        },
        { id: 'a1', phone: '+7 916 555-00-01', text: 'Код 1234' },
        { id: 'a2', phone: 'nope', text: 'x' },
      ],
    };
    const first = await post(ru, json(sms), 'application/json');
    assert.equal(first.status, 200);
    const body = ((await first.json()) as { entity: unknown }).entity;
    assert.deepEqual(body, {
      imported: 1,
      duplicates: 1,
      statuses: 0,
      unknown: 0,
      refused: [{ index: 2, reason: 'phone' }],
    });
    const retry = (await (await post(ru, json(sms), 'application/json')).json()) as {
      entity: { imported: number };
    };
    assert.equal(retry.entity.imported, 0);
    // SMS.ru reports statuses in data[] and reads "100" as received; an SMS never imported is acknowledged.
    const report = new URLSearchParams();
    report.append('data[0]', 'sms_status\na1\n103\n1795766400');
    report.append('data[1]', 'sms_status\nzz-unknown\n103\n1795766400');
    const answered = await post(ru, report.toString(), 'application/x-www-form-urlencoded');
    assert.equal(answered.status, 200);
    assert.equal(await answered.text(), '100');
    const [a1] = await s.db.query<{ status: string }>(
      "select status from messages where channel_id = $1 and external_message_id = 'a1'",
      [ru.id],
    );
    assert.equal(a1.status, 'delivered');
    // A wrong key, another channel's key, or the common webhook route: refused, nothing stored.
    assert.equal((await post(ru, json(sms), 'application/json', 'wrong')).status, 401);
    const other = await smsChannel(org, teamId, 'smsc');
    assert.equal((await post(other, json(sms), 'application/json', ru.key)).status, 401);
    const common = await fetch(`${s.url}/api/webhooks/sms/${ru.id}?key=${ru.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json(sms),
    });
    assert.equal(common.status, 401);
    // SMSC.ru: a status handler call with the text (mes) stores the SMS; a later one moves its status.
    const smsc = (fields: Record<string, string>) =>
      fetch(`${s.url}${other.url}?key=${other.key}&${new URLSearchParams(fields)}`, { method: 'GET' });
    assert.equal((await smsc({ id: '900', phone: '79165550002', status: '0', mes: 'Ждём вас' })).status, 200);
    assert.equal((await smsc({ id: '900', phone: '79165550002', status: '20', err: '1' })).status, 200);
    const [s900] = await s.db.query<{ status: string; status_reason: string; text: string }>(
      "select status, status_reason, text from messages where channel_id = $1 and external_message_id = '900:79165550002'",
      [other.id],
    );
    assert.equal(s900.text, 'Ждём вас');
    assert.equal(s900.status, 'undelivered');
    assert.match(s900.status_reason, /20/);
  });

  test('hostile uploads: too big, a zip bomb, binary, no rows, no file, another channel type — clear errors, nothing kept', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await smsChannel(org, teamId, 'other');
    const reason = async (file: Buffer, name: string) => {
      const res = await upload(org, ch.id, file, name);
      return [res.status, res.body.error?.code, res.body.error?.details?.reason ?? res.body.details?.reason];
    };
    // Over 40 MB: refused whole, as too large.
    const big = await upload(org, ch.id, Buffer.alloc(41 * 1024 * 1024, 0x61), 'big.csv');
    assert.equal(big.status, 413);
    // An XLSX whose one sheet inflates to 250 MB of zeros (honest sizes in its headers): refused, not expanded.
    const zeros = deflateRawSync(Buffer.alloc(250 * 1024 * 1024), { level: 9 });
    const entry = (name: string, data: Buffer, size: number, method: number, offset: number) => {
      const n = Buffer.from(name);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(method, 8);
      local.writeUInt32LE(crc32(Buffer.alloc(0)), 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(n.length, 26);
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(method, 10);
      central.writeUInt32LE(data.length, 20);
      central.writeUInt32LE(size, 24);
      central.writeUInt16LE(n.length, 28);
      central.writeUInt32LE(offset, 42);
      return { local: Buffer.concat([local, n, data]), central: Buffer.concat([central, n]) };
    };
    const sheet = entry('xl/worksheets/sheet1.xml', zeros, 250 * 1024 * 1024, 8, 0);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(sheet.central.length, 12);
    end.writeUInt32LE(sheet.local.length, 16);
    const started = Date.now();
    const bomb = await reason(Buffer.concat([sheet.local, sheet.central, end]), 'bomb.xlsx');
    assert.deepEqual(bomb, [400, 'fileUploadException', 'too_large']);
    assert.ok(Date.now() - started < 5_000, 'refused quickly');
    // Binary bytes, and a header with no rows under it.
    assert.deepEqual(await reason(Buffer.from([0, 1, 2, 3, 0, 0, 0xff, 0xfe, 0, 7]), 'x.csv'), [
      400,
      'fileUploadException',
      'not_a_table',
    ]);
    assert.deepEqual(await reason(Buffer.from('Phone;Text\r\n'), 'header.csv'), [
      400,
      'fileUploadException',
      'no_rows',
    ]);
    // No file; a channel that is not an SMS one.
    const form = new FormData();
    form.set('channelId', ch.id);
    assert.equal((await org.admin.api.post('/api/sms-imports', form)).status, 400);
    const api = await makeChannel(org, teamId);
    const wrong = await upload(org, api.id, Buffer.from('Phone;Text\r\n79160000000;hi\r\n'), 'a.csv');
    assert.equal(wrong.status, 400);
    assert.ok(wrong.body.error.fields.channelId);
    // Nothing was kept.
    assert.equal((await org.admin.api.get('/api/sms-imports')).body.entity.total, 0);
  });

  test('an import goes on from the last chunk counted (a restart mid-file adds nothing twice)', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await smsChannel(org, teamId, 'other');
    const csv = Buffer.from(
      ['Кому;Что', '+79160000101;one', '+79160000102;two', '+79160000103;three'].join('\n'),
    );
    const waiting = (await upload(org, ch.id, csv, 'resume.csv')).body.entity as SmsImportDto;
    assert.equal(waiting.status, 'mapping');
    // As a runner killed after its first chunk leaves it: the first row stored and counted.
    await s.db.query('update sms_imports set processed_rows = 1, imported = 1 where id = $1', [waiting.id]);
    const started = await org.admin.api.post(`/api/sms-imports/${waiting.id}/start`, {
      mapping: { phone: 0, text: 1 },
    });
    assert.equal(started.status, 200);
    const result = await done(org, waiting.id);
    assert.deepEqual(
      [result.status, result.processedRows, result.imported, result.duplicates],
      ['done', 3, 3, 0],
    );
    const texts = await s.db.query<{ text: string }>(
      'select text from messages where channel_id = $1 order by text',
      [ch.id],
    );
    assert.deepEqual(
      texts.map((t) => t.text),
      ['three', 'two'],
      'only the rows after the counted one were read again',
    );
  });
});
