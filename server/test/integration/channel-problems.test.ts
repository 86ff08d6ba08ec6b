import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { drainOutbox, OUTBOX } from '../../src/jobs/outbox.ts';
import { PROBLEMS } from '../../src/modules/channels/problems.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { startSmtpSink } from '../smtp-sink.ts';
import { goOnline, inbound, makeChannel, makeTeam, recordEvents } from './chats-fixtures.ts';

/** A provider endpoint answering every request with `status.code` (changed by the test). */
async function fakeWebhook() {
  const status = { code: 200, hits: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      status.hits++;
      res.statusCode = status.code;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    status,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function waitFor(check: () => Promise<boolean> | boolean, ms = 8000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('channel problems: banner list, realtime and the notification e-mail', () => {
  let s: TestServer;
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  let hook: Awaited<ReturnType<typeof fakeWebhook>>;
  before(async () => {
    sink = await startSmtpSink();
    hook = await fakeWebhook();
    s = await startTestServer({ realMailer: true, env: { SMTP_URL: sink.url } });
  });
  after(async () => {
    await s.close();
    await hook.close();
    await sink.close();
  });

  async function setup() {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId, { webhookUrl: hook.url, notificationEmail: 'ops@example.com' });
    const chatId = (await inbound(s, ch, { client: 'p-1' })).body.entity.chatId;
    const send = async (text: string) => {
      const hits = hook.status.hits;
      assert.equal((await op.api.post(`/api/chats/${chatId}/messages`, { text })).status, 200);
      await waitFor(() => hook.status.hits > hits);
    };
    const problems = async () => (await org.admin.api.get('/api/channels/problems')).body.entity.items;
    return { org, op, ch, send, problems };
  }

  test('a refused token opens a problem: listed, pushed, mailed once an hour; a delivery that works ends it', async () => {
    const { org, op, ch, send, problems } = await setup();
    hook.status.code = 401;
    const rec = recordEvents(s);
    await send('first');
    await waitFor(async () => (await problems()).length === 1);
    const [p] = await problems();
    assert.equal(p.channelId, ch.id);
    assert.equal(p.kind, 'token_refused');
    assert.equal(p.detail, 'HTTP 401');
    await waitFor(() => sink.mails.length === 1);
    assert.deepEqual(sink.mails[0].to, ['ops@example.com']);
    // Quoted-printable: soft line breaks joined.
    const raw = sink.mails[0].raw.replace(/=\r\n/g, '');
    assert.match(raw, /Subject: =\?UTF-8\?Q\?Problem_detected!/);
    assert.match(raw, /Details: HTTP 401/);
    assert.match(raw, new RegExp(`/admin/preferences/channels/${ch.id}`));
    await waitFor(() => rec.events.some((e) => e.type === 'channel.problems'));
    const event = rec.events.find((e) => e.type === 'channel.problems');
    assert.deepEqual(event?.audience, { rights: ['AUTHORITY_SERVICE_ACCOUNT'] });
    // Only administrators read it.
    assert.equal((await op.api.get('/api/channels/problems')).status, 403);
    // Again within the hour: one problem, no second mail.
    await send('second');
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await problems()).length, 1);
    assert.equal(sink.mails.length, 1);
    // The channel works again: the problem ends.
    hook.status.code = 200;
    await send('third');
    await waitFor(async () => (await problems()).length === 0);
    // Back within the hour: shown again, not mailed again.
    hook.status.code = 401;
    await send('fourth');
    await waitFor(async () => (await problems()).length === 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(sink.mails.length, 1);
    // Dismissed by an administrator (another organisation cannot): gone from the list.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.post(`/api/channels/${ch.id}/problems/dismiss`, {})).status, 404);
    assert.equal((await org.admin.api.post(`/api/channels/${ch.id}/problems/dismiss`, {})).status, 200);
    assert.deepEqual(await problems(), []);
    assert.deepEqual((await other.admin.api.get('/api/channels/problems')).body.entity.items, []);
    rec.stop();
    hook.status.code = 200;
  });

  test('an unreachable provider is a problem only once it has failed for a while', async () => {
    const { send, problems } = await setup();
    const mails = sink.mails.length;
    hook.status.code = 503;
    await send('down');
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(await problems(), []);
    // The retry after the backoff, still failing, past the while.
    s.clock.advance(PROBLEMS.unreachableAfterMs + OUTBOX.maxDelayMs);
    const hits = hook.status.hits;
    await drainOutbox(s.app);
    await waitFor(() => hook.status.hits > hits);
    await waitFor(async () => (await problems()).length === 1);
    assert.equal((await problems())[0].kind, 'unreachable');
    await waitFor(() => sink.mails.length === mails + 1);
    hook.status.code = 200;
  });
});
