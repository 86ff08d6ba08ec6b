import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam } from './chats-fixtures.ts';

/** Outbound requests to tenant-chosen URLs (the API channel's webhook) on an installation that allows no local network. */
describe('tenant-chosen URLs: local and private addresses are refused', () => {
  let s: TestServer;
  let local: Server;
  let hits = 0;
  let localUrl: string;
  before(async () => {
    s = await startTestServer({ env: { OUTBOUND_ALLOWED_NETWORKS: '' } });
    local = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
    localUrl = `http://127.0.0.1:${(local.address() as { port: number }).port}`;
  });
  after(async () => {
    local.closeAllConnections();
    local.close();
    await s.close();
  });

  test('a webhook URL on a local or private address is a field error on create and on update', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const port = new URL(localUrl).port;
    for (const webhookUrl of [
      `${localUrl}/hook`,
      `http://localhost:${port}/hook`,
      'http://[::1]/hook',
      'http://10.0.0.7/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00::1]/hook',
    ]) {
      const res = await org.admin.api.post('/api/channels', {
        type: 'api',
        name: 'Shop',
        teamId,
        webhookUrl,
      });
      assert.equal(res.status, 400, webhookUrl);
      assert.equal(res.body.error.code, 'validationException');
      assert.equal(res.body.error.fields.webhookUrl, 'Local and private network addresses are not allowed');
    }
    const ok = await org.admin.api.post('/api/channels', {
      type: 'api',
      name: 'Shop',
      teamId,
      webhookUrl: 'https://shop.example.invalid/hook',
    });
    assert.equal(ok.status, 200);
    const patched = await org.admin.api.patch(`/api/channels/${ok.body.entity.id}`, {
      webhookUrl: 'http://192.168.0.10/hook',
    });
    assert.equal(patched.status, 400);
    assert.equal(patched.body.error.fields.webhookUrl, 'Local and private network addresses are not allowed');
    const still = await org.admin.api.get(`/api/channels/${ok.body.entity.id}`);
    assert.equal(still.body.entity.settings.webhookUrl, 'https://shop.example.invalid/hook');
  });

  test('an IPv6 literal carrying a local IPv4 address is refused at save time (IPv4-compatible, NAT64)', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    for (const webhookUrl of [
      'http://[::7f00:1]/hook',
      'http://[::127.0.0.1]/hook',
      'http://[::a9fe:a9fe]/latest/meta-data',
      'http://[::ffff:0:a00:7]/hook',
      'http://[64:ff9b::7f00:1]/hook',
    ]) {
      const res = await org.admin.api.post('/api/channels', {
        type: 'api',
        name: 'Shop',
        teamId,
        webhookUrl,
      });
      assert.equal(res.status, 400, webhookUrl);
      assert.equal(res.body.error.fields.webhookUrl, 'Local and private network addresses are not allowed');
    }
  });

  test('checked again when sending: a name that now resolves to a local address is not called', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const op = await org.user({ teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId, { webhookUrl: 'https://shop.example.invalid/hook' });
    // As if the name had resolved to a public address when saved and resolves to this machine now (DNS rebinding).
    await s.db.query(
      "update channels set settings = jsonb_build_object('webhookUrl', $2::text) where id = $1",
      [ch.id, `http://localhost:${new URL(localUrl).port}/hook`],
    );
    const chatId = (await inbound(s, ch)).body.entity.chatId;
    const sent = await op.api.post(`/api/chats/${chatId}/messages`, { text: 'Hello' });
    assert.equal(sent.status, 200);
    // The send kicks the dispatcher; a run of our own covers a kick that has not started yet.
    await drainOutbox(s.app);
    const status = async () =>
      (await op.api.get(`/api/chats/${chatId}/messages`)).body.entity.items.find(
        (m: { id: string }) => m.id === sent.body.entity.id,
      ).status;
    for (let i = 0; i < 100 && (await status()) === 'pending'; i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(await status(), 'undelivered', 'refused for good at the first attempt, not retried');
    assert.equal(hits, 0, 'the local server was never called');
  });
});
