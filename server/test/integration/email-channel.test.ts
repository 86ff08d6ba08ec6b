import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { ImapFlow } from 'imapflow';
import { simpleParser } from 'mailparser';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { stopPolls } from '../../src/jobs/polls.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { createServer, type Server } from '../../src/server.ts';
import { type Dovecot, dovecotMissing, startDovecot } from '../dovecot.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { startSmtpSink } from '../smtp-sink.ts';
import { makeTeam } from './chats-fixtures.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/email');
const fixture = (name: string, fill: Record<string, string> = {}) =>
  Buffer.from(
    Object.entries(fill).reduce(
      (text, [k, v]) => text.replaceAll(`{{${k}}}`, v),
      readFileSync(join(FIXTURES, name)).toString('latin1'),
    ),
    'latin1',
  );

const until = async <T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  ms = 20_000,
): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

type Chat = { id: string; client: { name: string; externalId: string } };
type Message = {
  id: string;
  direction: string;
  text: string;
  status: string | null;
  statusReason?: string | null;
  attachments: { url: string; name?: string; contentType?: string; size?: number }[];
};

/**
 * The e-mail channel against real servers: Dovecot (IMAP, started here with a throwaway configuration) and an
 * SMTP server (smtp-server). Mail is delivered into the mailbox with IMAP APPEND, as a mail server would.
 */
describe('E-mail channel on real IMAP and SMTP', { skip: dovecotMissing() }, () => {
  let s: TestServer;
  let dovecot: Dovecot;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  const smtpUsers: Record<string, string> = {};
  let n = 0;

  before(async () => {
    dovecot = await startDovecot();
    dovecot.addUsers(
      Array.from({ length: 20 }, (_, i) => `support${i + 1}@shop.test`),
      'imap-secret',
    );
    sink = await startSmtpSink({ users: smtpUsers, refuse: (a) => a.startsWith('nobody@') });
    s = await startTestServer({
      env: { EMAIL_FETCH_BATCH: '2', EMAIL_TIMEOUT_MS: '5000', EMAIL_MAX_BYTES: '50000' },
    });
  });
  after(async () => {
    await s?.close();
    await sink?.close();
    await dovecot?.close();
  });

  /** A new mailbox (IMAP user) and SMTP login. */
  function mailbox() {
    const address = `support${++n}@shop.test`;
    smtpUsers[address] = 'smtp-secret';
    return address;
  }
  const body = (address: string, teamId: string, over: Record<string, unknown> = {}) => ({
    type: 'email',
    name: `Mail ${address}`,
    teamId,
    address,
    receive: {
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      login: address,
      password: 'imap-secret',
      protocol: 'imap',
    },
    send: {
      host: '127.0.0.1',
      port: sink.port,
      secure: false,
      login: address,
      password: 'smtp-secret',
      protocol: 'smtp',
    },
    ...over,
  });

  async function connect(org?: TestOrg) {
    const o = org ?? (await createOrganisation(s));
    const teamId = await makeTeam(o, { method: 'manual' });
    const address = mailbox();
    const res = await o.admin.api.post('/api/channels', body(address, teamId));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { org: o, address, teamId, channelId: res.body.entity.id as string };
  }

  /** Delivers raw mails into the mailbox's INBOX (IMAP APPEND). */
  async function deliver(address: string, ...mails: Buffer[]) {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: address, pass: 'imap-secret' },
      logger: false,
    });
    await client.connect();
    for (const raw of mails) await client.append('INBOX', raw);
    await client.logout();
  }

  async function sentFolder(address: string): Promise<number> {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: address, pass: 'imap-secret' },
      logger: false,
    });
    await client.connect();
    const status = await client.status('Sent', { messages: true });
    await client.logout();
    return status ? (status.messages ?? 0) : 0;
  }

  const chatsOf = async (org: TestOrg): Promise<Chat[]> =>
    (await org.admin.api.get('/api/chats?filter=waiting&limit=100')).body.entity.items;
  const messagesOf = async (org: TestOrg, chatId: string): Promise<Message[]> =>
    (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items;
  const chatOf = (org: TestOrg, externalId: string) =>
    until(`a chat of ${externalId}`, async () =>
      (await chatsOf(org)).find((c) => c.client.externalId === externalId),
    );

  test('connecting tests both servers and says which failed and why; the port must be numeric; passwords never answered', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const address = mailbox();
    const bad = await org.admin.api.post(
      '/api/channels',
      body(address, teamId, {
        receive: { host: dovecot.host, port: 'abc', login: address, password: 'x', protocol: 'imap' },
      }),
    );
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.fields['receive.port'], 'The port must be a number from 1 to 65535');

    const missing = await org.admin.api.post('/api/channels', { ...body(address, teamId), send: undefined });
    assert.equal(missing.status, 400);

    // Wrong IMAP password and nobody listening for SMTP: both named, nothing stored.
    const refused = await org.admin.api.post(
      '/api/channels',
      body(address, teamId, {
        receive: { host: dovecot.host, port: dovecot.port, secure: false, login: address, password: 'wrong' },
        send: { host: '127.0.0.1', port: 9, secure: false, login: address, password: 'smtp-secret' },
      }),
    );
    assert.equal(refused.status, 502, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'channelCreationException');
    assert.deepEqual(refused.body.error.details, { reason: 'mailbox', receive: 'auth', send: 'unreachable' });

    const smtpAuth = await org.admin.api.post(
      '/api/channels',
      body(address, teamId, {
        send: { host: '127.0.0.1', port: sink.port, secure: false, login: address, password: 'wrong' },
      }),
    );
    assert.equal(smtpAuth.status, 502);
    assert.deepEqual(smtpAuth.body.error.details, { reason: 'mailbox', send: 'auth' });
    assert.equal((await org.admin.api.get('/api/channels')).body.entity.total, 0, 'nothing stored');

    // Hosts are tenant-chosen: private networks are refused like webhook URLs (the tests allow only 127.0.0.0/8).
    const privateNet = await org.admin.api.post(
      '/api/channels',
      body(address, teamId, {
        receive: { host: '10.1.2.3', port: 993, login: address, password: 'x' },
        send: { host: '192.168.0.1', port: 465, login: address, password: 'x' },
      }),
    );
    assert.equal(privateNet.status, 502);
    assert.deepEqual(privateNet.body.error.details, {
      reason: 'mailbox',
      receive: 'address',
      send: 'address',
    });

    const ok = await org.admin.api.post('/api/channels', body(address, teamId));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const text = JSON.stringify((await org.admin.api.get(`/api/channels/${ok.body.entity.id}`)).body);
    assert.ok(!text.includes('imap-secret') && !text.includes('smtp-secret'), text);
    assert.equal(ok.body.entity.settings.receive.port, dovecot.port);
    assert.equal(ok.body.entity.settings.address, address);
    // The stored secrets are encrypted at rest.
    const [row] = await s.db.query<{ secrets: string }>('select secrets from channels where id = $1', [
      ok.body.entity.id,
    ]);
    assert.ok(!row.secrets.includes('imap-secret'));

    // Editing the SMTP login without a password keeps the stored one (checked again with the servers).
    const edit = await org.admin.api.patch(`/api/channels/${ok.body.entity.id}`, {
      send: { host: '127.0.0.1', port: sink.port, secure: false, login: address },
    });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    const badPort = await org.admin.api.patch(`/api/channels/${ok.body.entity.id}`, {
      send: { host: '127.0.0.1', port: 70000, login: address },
    });
    assert.equal(badPort.status, 400);
    assert.equal(badPort.body.error.fields['send.port'], 'The port must be a number from 1 to 65535');
  });

  test('old encodings, HTML-only mail, RFC 2231 attachments; an out-of-office opens nothing', async () => {
    const { org, address } = await connect();
    await deliver(
      address,
      fixture('win1251.eml'),
      fixture('koi8r-qp.eml'),
      fixture('html-only.eml'),
      fixture('attachment-rfc2231.eml'),
      fixture('out-of-office.eml'),
    );
    const ivan = await chatOf(org, 'ivan@customer.test');
    assert.equal(ivan.client.name, 'Иван Петров');
    const [w] = await messagesOf(org, ivan.id);
    assert.equal(
      w.text,
      'Заказ №1045 не пришёл\n\nЗдравствуйте!\nМой заказ №1045 так и не пришёл. Подскажите, где он?\n\nИван',
    );

    const olga = await chatOf(org, 'olga@customer.test');
    assert.equal(olga.client.name, 'Ольга Смирнова');
    assert.match(
      (await messagesOf(org, olga.id))[0].text,
      /^Возврат товара\n\nДобрый день! Хочу вернуть товар, он оказался мал\.\nС уважением, Ольга$/,
    );

    const mark = await chatOf(org, 'mark@customer.test');
    const html = (await messagesOf(org, mark.id))[0].text;
    assert.match(html, /I paid for order 2077/);
    assert.match(html, /order page <https:\/\/shop\.test\/orders\/2077>/, 'links kept as text');
    for (const gone of ['<script', 'alert', 'document.cookie', 'color:#333', 'tracker.test', '<p', 'onclick'])
      assert.ok(!html.includes(gone), `${gone} must be gone: ${html}`);

    const anna = await chatOf(org, 'anna@customer.test');
    const [contract] = await messagesOf(org, anna.id);
    assert.match(contract.text, /Высылаю договор, подпишите пожалуйста\./);
    const pdf = contract.attachments.find((a) => a.contentType === 'application/pdf');
    assert.equal(pdf?.name, 'Договор поставки №7.pdf');
    const file = await org.admin.api.get(new URL(pdf.url, s.url).pathname);
    assert.equal(file.status, 200);
    assert.match(String(file.body), /^%PDF-1\.4/);
    const inline = contract.attachments.find((a) => a.contentType === 'image/png');
    assert.ok(inline, 'the inline image is kept and shown as an image');

    // A mail past EMAIL_MAX_BYTES is not downloaded: a notice in the sender's dialog stands for it.
    const big = Buffer.from(
      `From: Big Sender <big@customer.test>\r\nSubject: Scans\r\nMessage-ID: <big-1@customer.test>\r\nContent-Type: text/plain\r\n\r\n${'x'.repeat(60_000)}\r\n`,
    );
    await deliver(address, big);
    const bigChat = await chatOf(org, 'big@customer.test');
    assert.equal(
      (await messagesOf(org, bigChat.id))[0].text,
      'Scans\n\n[E-mail of 1 MB: too large to receive]',
    );

    // Everything above arrived; the out-of-office (delivered with it) opened no dialog.
    await new Promise((r) => setTimeout(r, 500));
    const all = await chatsOf(org);
    assert.equal(all.length, 5, JSON.stringify(all.map((c) => c.client.externalId)));
    assert.ok(!all.some((c) => c.client.externalId === 'boss@customer.test'));
  });

  test('a From name of 40,000 or 200,000 letters is cut to its bound where it enters; the mail is kept (issue 29)', async () => {
    const { org, address } = await connect();
    const mail = (id: string, name: string, from: string) =>
      Buffer.from(
        `From: ${name} <${from}>\r\nSubject: Order ${id}\r\nMessage-ID: <${id}@customer.test>\r\nContent-Type: text/plain\r\n\r\nWhere is order ${id}?\r\n`,
      );
    // 40,000 letters: the mail is read whole; 200,000: past EMAIL_MAX_BYTES, its envelope's name still comes in.
    await deliver(address, mail('4001', 'A'.repeat(40_000), 'long@customer.test'));
    await deliver(address, mail('4002', 'B'.repeat(200_000), 'huge@customer.test'));
    for (const [from, letter] of [
      ['long@customer.test', 'A'],
      ['huge@customer.test', 'B'],
    ]) {
      const chat = await chatOf(org, from);
      assert.equal(chat.client.name, `${letter.repeat(254)}…`, from);
      const [m] = await messagesOf(org, chat.id);
      assert.match(m.text, new RegExp(`\\n\\[Name: ${letter}{100}`), from);
    }
  });

  test('a reply goes out threaded (Message-ID, In-Reply-To, References, Re:, text + HTML), lands in Sent; the answer to it joins the dialog; a bounce marks it Undelivered', async () => {
    const { org, address } = await connect();
    await deliver(address, fixture('win1251.eml'));
    const chat = await chatOf(org, 'ivan@customer.test');
    assert.equal((await org.admin.api.post(`/api/chats/${chat.id}/take`)).status, 200);
    const before = sink.mails.length;
    const res = await org.admin.api.post(`/api/chats/${chat.id}/messages`, {
      text: 'Ваш заказ уже в пути.\nТрек: 123',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const ourId = res.body.entity.id as string;
    await drainOutbox(s.app);
    const status = async () => (await messagesOf(org, chat.id)).find((m) => m.id === ourId);
    await until('Sent', async () => (await status())?.status === 'sent');
    const raw = sink.mails.slice(before).find((m) => m.to.includes('ivan@customer.test'));
    assert.ok(raw, 'the SMTP server received the reply');
    const mail = await simpleParser(raw.raw);
    assert.equal(mail.subject, 'Re: Заказ №1045 не пришёл');
    assert.equal(mail.inReplyTo, '<win1251-1045@customer.test>');
    assert.deepEqual([mail.references].flat(), ['<win1251-1045@customer.test>']);
    assert.equal(mail.messageId, `<${ourId}@shop.test>`);
    assert.equal(mail.text?.trim(), 'Ваш заказ уже в пути.\nТрек: 123');
    assert.match(String(mail.html), /Ваш заказ уже в пути\.<br>Трек: 123/);
    assert.equal(mail.from?.value[0].address, address);
    assert.equal(mail.headers.get('auto-submitted'), undefined, 'a person wrote it');
    await until('the copy in Sent', async () => (await sentFolder(address)) === 1);

    // The customer answers from another address of theirs: the headers thread it into the same dialog.
    await deliver(address, fixture('threaded-reply.eml', { IN_REPLY_TO: `${ourId}@shop.test` }));
    await until('the reply in the dialog', async () =>
      (await messagesOf(org, chat.id)).some((m) => m.text.includes('Спасибо, получил!')),
    );
    const reply = (await messagesOf(org, chat.id)).find((m) => m.text.includes('Спасибо'));
    // Written from another address: the text says who; the dialog's client keeps their address and name.
    assert.match(
      reply?.text ?? '',
      /^Иван Петров <ivan\.home@other\.test>\n\nСпасибо, получил!\n\nOn Mon, 23 Nov 2026 at 11:00, support@shop\.test wrote:\n> Ваш заказ/,
    );
    assert.ok(
      !(await chatsOf(org)).some((c) => c.client.externalId === 'ivan.home@other.test'),
      'no new dialog',
    );

    // Our next reply threads onto the customer's latest mail.
    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from('%PDF-1.4 invoice'), 'application/pdf'),
    );
    const second = await org.admin.api.post(`/api/chats/${chat.id}/messages`, {
      text: 'Рады помочь!',
      attachments: [
        {
          url: `http://localhost:3000/api/files/${key}`,
          name: 'Счёт №5.pdf',
          contentType: 'application/pdf',
        },
      ],
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    await drainOutbox(s.app);
    await until(
      'second sent',
      async () =>
        (await messagesOf(org, chat.id)).find((m) => m.id === second.body.entity.id)?.status === 'sent',
    );
    const next = await simpleParser(
      sink.mails.filter((m) => m.raw.includes(second.body.entity.id)).at(-1)?.raw ?? '',
    );
    assert.equal(next.inReplyTo, '<reply-1045@other.test>');
    assert.deepEqual([next.references].flat(), [
      `<win1251-1045@customer.test>`,
      `<${ourId}@shop.test>`,
      '<reply-1045@other.test>',
    ]);
    assert.equal(next.subject, 'Re: Заказ №1045 не пришёл');
    assert.equal(next.attachments.length, 1);
    assert.equal(next.attachments[0].filename, 'Счёт №5.pdf');
    assert.equal(next.attachments[0].contentType, 'application/pdf');
    assert.equal(next.attachments[0].content.toString(), '%PDF-1.4 invoice');

    // A delivery-status notification for our first reply: Undelivered with the reason, no dialog opened.
    const chatsBefore = (await chatsOf(org)).length;
    await deliver(
      address,
      fixture('dsn-bounce.eml', { ORIGINAL_ID: `${ourId}@shop.test`, RECIPIENT: 'ivan@customer.test' }),
    );
    const bounced = await until('Undelivered', async () => {
      const m = await status();
      return m?.status === 'undelivered' && m;
    });
    assert.match(String(bounced.statusReason ?? ''), /5\.1\.1.*User unknown/);
    assert.equal((await chatsOf(org)).length, chatsBefore);
  });

  test('an operator writes first to a client who mailed before: the mail continues their thread', async () => {
    // Closing without a request category needs an organisation without OPTION_CATEGORY.
    const plan = PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY');
    const { org, address, channelId } = await connect(await createOrganisation(s, { options: plan }));
    await deliver(address, fixture('koi8r-qp.eml'));
    const chat = await chatOf(org, 'olga@customer.test');
    const full = (await org.admin.api.get(`/api/chats/${chat.id}`)).body.entity;
    assert.equal((await org.admin.api.post(`/api/chats/${chat.id}/take`)).status, 200);
    const closed = await org.admin.api.post(`/api/chats/${chat.id}/close`, {});
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const started = await org.admin.api.post('/api/chats', {
      clientId: full.client.id,
      channelId,
      text: 'Мы получили товар, деньги вернём завтра.',
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    await drainOutbox(s.app);
    const raw = await until('the mail', async () =>
      sink.mails.find((m) => m.to.includes('olga@customer.test') && m.raw.includes(address)),
    );
    const mail = await simpleParser(raw.raw);
    assert.equal(mail.subject, 'Re: Возврат товара');
    assert.equal(mail.inReplyTo, '<koi8-return@customer.test>');
  });

  test('an automatic reply goes out marked Auto-Submitted (RFC 3834)', async () => {
    const plan = PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY');
    const { org, address, channelId } = await connect(await createOrganisation(s, { options: plan }));
    const off = { enabled: false, text: '' };
    const replies = await org.admin.api.put(`/api/channels/${channelId}/auto-replies`, {
      online: off,
      offline: { enabled: true, text: 'We are closed now and answer in the morning.' },
      rating: off,
      holding: { ...off, waitMinutes: 2 },
    });
    assert.equal(replies.status, 200, JSON.stringify(replies.body));
    await deliver(address, fixture('html-only.eml'));
    const raw = await until('the automatic reply', async () => {
      await drainOutbox(s.app);
      return sink.mails.find((m) => m.to.includes('mark@customer.test') && m.raw.includes(address));
    });
    const mail = await simpleParser(raw.raw);
    assert.equal(mail.text?.trim(), 'We are closed now and answer in the morning.');
    assert.equal(mail.headers.get('auto-submitted'), 'auto-replied');
    assert.equal(mail.subject, 'Re: Payment not confirmed');
  });

  test('a 5xx SMTP refusal is Undelivered at once', async () => {
    const { org, address } = await connect();
    const nobody = fixture('win1251.eml')
      .toString('latin1')
      .replace('ivan@customer.test', 'nobody@customer.test')
      .replace('win1251-1045@', 'nobody-1@');
    await deliver(address, Buffer.from(nobody, 'latin1'));
    const chat = await chatOf(org, 'nobody@customer.test');
    await org.admin.api.post(`/api/chats/${chat.id}/take`);
    const res = await org.admin.api.post(`/api/chats/${chat.id}/messages`, { text: 'Hello?' });
    await drainOutbox(s.app);
    const m = await until('Undelivered', async () => {
      const x = (await messagesOf(org, chat.id)).find((y) => y.id === res.body.entity.id);
      return x?.status === 'undelivered' && x;
    });
    assert.match(String(m.statusReason), /550/);
  });

  test('an inactive channel reads nothing; the mail waits in the mailbox until it is active again', async () => {
    const { org, address, channelId } = await connect();
    // The session is in IDLE when the channel is switched off.
    await until('the session in IDLE', async () => {
      const [row] = await s.db.query<{ claimed_by: string | null; cursor: { lastUid?: number } }>(
        'select claimed_by, cursor from channel_polls where channel_id = $1',
        [channelId],
      );
      return row.claimed_by && typeof row.cursor.lastUid === 'number';
    });
    const off = await org.admin.api.patch(`/api/channels/${channelId}`, { status: 'inactive' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await deliver(address, fixture('koi8r-qp.eml'));
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal((await chatsOf(org)).length, 0, 'nothing read while inactive');
    const on = await org.admin.api.patch(`/api/channels/${channelId}`, { status: 'active' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    const chat = await chatOf(org, 'olga@customer.test');
    assert.equal((await messagesOf(org, chat.id)).length, 1);
  });

  test('a server without IDLE is polled every EMAIL_POLL_INTERVAL_MS', async () => {
    const plain = await startDovecot({ idle: false });
    try {
      const address = 'poll@shop.test';
      plain.addUsers([address], 'imap-secret');
      smtpUsers[address] = 'smtp-secret';
      const org = await createOrganisation(s);
      const teamId = await makeTeam(org, { method: 'manual' });
      const res = await org.admin.api.post(
        '/api/channels',
        body(address, teamId, {
          receive: {
            host: plain.host,
            port: plain.port,
            secure: false,
            login: address,
            password: 'imap-secret',
          },
        }),
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // The first session reads the (empty) mailbox and, without IDLE, ends until the interval has passed.
      await until('the first poll', async () => {
        const [row] = await s.db.query<{ due_at: Date; claimed_by: string | null }>(
          'select due_at, claimed_by from channel_polls where channel_id = $1',
          [res.body.entity.id],
        );
        return !row.claimed_by && new Date(row.due_at).getTime() > s.clock.now().getTime() + 50_000 && row;
      });
      const client = new ImapFlow({
        host: plain.host,
        port: plain.port,
        secure: false,
        auth: { user: address, pass: 'imap-secret' },
        logger: false,
      });
      await client.connect();
      assert.equal(client.capabilities.has('IDLE'), false);
      await client.append('INBOX', fixture('koi8r-qp.eml'));
      await client.logout();
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await chatsOf(org)).length, 0, 'not read before the interval');
      s.clock.advance(61_000);
      const chat = await chatOf(org, 'olga@customer.test');
      assert.equal(chat.client.name, 'Ольга Смирнова');
    } finally {
      await plain.close();
    }
  });

  test('several instances read one mailbox exactly once; a restart mid-mailbox and a UIDVALIDITY change lose and double nothing', async () => {
    const { org, address, channelId } = await connect();
    const mailN = (i: number) =>
      Buffer.from(
        `From: Client ${i} <c${i}@customer.test>\r\nTo: ${address}\r\nSubject: Question ${i}\r\nMessage-ID: <q-${i}@customer.test>\r\nDate: Mon, 23 Nov 2026 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nQuestion number ${i}\r\n`,
      );
    const shared = { ...s.db, close: async () => undefined };
    const count = async () =>
      await s.db.query<{ external_message_id: string; n: number }>(
        `select external_message_id, count(*)::int as n from messages where channel_id = $1 and direction = 'in'
          group by external_message_id`,
        [channelId],
      );
    const other: Server = await createServer(s.app.config, { db: shared, clock: s.clock });
    let third: Server | undefined;
    try {
      await deliver(address, ...[1, 2, 3, 4, 5, 6].map(mailN));
      // Another instance stops while the mailbox is being read (batches of 2): the rest is read all the same.
      await until('a first mail', async () => (await count()).length >= 1);
      await other.close();
      await until('six mails', async () => (await count()).length === 6);
      assert.ok((await count()).every((r) => r.n === 1));

      // This instance stops; the server renumbers the mailbox (a new UIDVALIDITY) and a restart reads it again:
      // everything since the newest mail seen is re-read, and Message-IDs keep each mail once.
      await stopPolls(s.app);
      await s.db.query(
        `update channel_polls set cursor = jsonb_set(cursor, '{uidValidity}', '"1"'), claimed_by = null,
                lease_until = null, due_at = $2 where channel_id = $1`,
        [channelId, s.clock.now()],
      );
      third = await createServer(s.app.config, { db: shared, clock: s.clock });
      await deliver(address, mailN(7), mailN(8));
      await until('eight mails', async () => (await count()).length === 8);
      await new Promise((r) => setTimeout(r, 1500));
      const rows = await count();
      assert.equal(rows.length, 8);
      assert.ok(
        rows.every((r) => r.n === 1),
        JSON.stringify(rows),
      );
      assert.equal((await chatsOf(org)).length, 8);
      const [cursor] = await s.db.query<{ cursor: { uidValidity: string; lastUid: number } }>(
        'select cursor from channel_polls where channel_id = $1',
        [channelId],
      );
      assert.notEqual(cursor.cursor.uidValidity, '1');
      assert.equal(cursor.cursor.lastUid, 8);
    } finally {
      await third?.close();
    }
  });
});
