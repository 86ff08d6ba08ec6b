import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { decryptSecret } from '../../src/lib/crypto.ts';
import { refreshProviderTokens } from '../../src/modules/channels/oauth.ts';
import { listChannelProblems } from '../../src/modules/channels/problems.ts';
import { saveFile } from '../../src/modules/files/service.ts';
import { type FakeMeta, startFakeMeta } from '../fakes/meta.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { MEDIA } from '../media-fixtures.ts';
import { chatsOf, messagesOf, replyTo } from '../replies.ts';
import { goOnline, makeTeam } from './chats-fixtures.ts';

/** Instagram and Facebook Messenger end to end against a fake of Facebook Login and the Messenger Platform. */
describe('Instagram and Facebook channels', () => {
  let s: TestServer;
  let meta: FakeMeta;
  before(async () => {
    const clock = new ManualClock();
    meta = await startFakeMeta({ now: () => clock.now().getTime() });
    s = await startTestServer({
      clock,
      env: {
        META_GRAPH_BASE_URL: meta.baseUrl,
        META_OAUTH_BASE_URL: meta.baseUrl,
        META_APP_ID: meta.appId,
        META_APP_SECRET: meta.appSecret,
        META_VERIFY_TOKEN: 'meta-verify-token-1',
      },
    });
  });
  after(async () => {
    await s.close();
    await meta.close();
  });

  /** The admin's browser: start, the provider's dialog, back to our callback; answers where it lands. */
  async function login(org: TestOrg, type: 'instagram' | 'facebook'): Promise<URLSearchParams> {
    const start = await org.admin.api.get(`/api/channels/oauth/start?type=${type}`);
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const dialog = new URL(start.body.entity.url);
    assert.equal(dialog.origin, meta.baseUrl);
    assert.equal(dialog.pathname, `/${meta.version}/dialog/oauth`);
    assert.equal(dialog.searchParams.get('client_id'), meta.appId);
    assert.equal(
      dialog.searchParams.get('redirect_uri'),
      `http://localhost:3000/api/channels/oauth/${type}/callback`,
    );
    const atMeta = await fetch(dialog, { redirect: 'manual' });
    assert.equal(atMeta.status, 302);
    const back = new URL(atMeta.headers.get('location') as string);
    const ours = await fetch(`${s.url}${back.pathname}${back.search}`, { redirect: 'manual' });
    assert.equal(ours.status, 302);
    const page = new URL(ours.headers.get('location') as string, 'http://localhost:3000');
    assert.equal(page.pathname, '/admin/preferences/channels');
    assert.equal(page.searchParams.get('connect'), type);
    return page.searchParams;
  }

  type Setup = { org: TestOrg; channelId: string; hook: string };
  async function connect(type: 'instagram' | 'facebook', org?: TestOrg): Promise<Setup> {
    const o = org ?? (await createOrganisation(s));
    const teamId = await makeTeam(o, { method: 'manual' });
    const grant = (await login(o, type)).get('grant') as string;
    const res = await o.admin.api.post('/api/channels', {
      type,
      name: `${type} ${Math.random().toString(36).slice(2, 8)}`,
      teamId,
      grant,
      pageId: meta.pageId,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const channelId = res.body.entity.id;
    return { org: o, channelId, hook: `${s.url}/api/webhooks/${type}/${channelId}` };
  }

  test('logging in: state bound to the organisation, code -> long-lived token, pages to choose, page subscribed', async () => {
    const org = await createOrganisation(s);
    const other = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const back = await login(org, 'instagram');
    const grant = back.get('grant') as string;
    assert.ok(grant && !back.get('error'));
    assert.ok(!grant.includes(meta.userToken), 'the token never travels in the clear');
    // The long-lived exchange was made with the short token.
    assert.ok(meta.requests.some((r) => r.query.get('fb_exchange_token') === meta.shortToken));

    const accounts = await org.admin.api.post('/api/channels/oauth/accounts', {
      type: 'instagram',
      grant: grant,
    });
    assert.equal(accounts.status, 200);
    assert.deepEqual(accounts.body.entity.items, [
      { id: meta.pageId, name: meta.pageName, username: meta.igUsername },
    ]);
    const fbAccounts = await org.admin.api.post('/api/channels/oauth/accounts', {
      type: 'facebook',
      grant: grant,
    });
    assert.equal(fbAccounts.status, 404, 'a grant is for its own type');
    const stolen = await other.admin.api.post('/api/channels/oauth/accounts', {
      type: 'instagram',
      grant: grant,
    });
    assert.equal(stolen.status, 404, 'another organisation cannot use the grant');
    const operator = await org.user({ role: 'OPERATOR' });
    assert.equal((await operator.api.get('/api/channels/oauth/start?type=instagram')).status, 403);
    assert.equal((await org.admin.api.get('/api/channels/oauth/start?type=telegram')).status, 404);

    const badPage = await org.admin.api.post('/api/channels', {
      type: 'instagram',
      name: 'IG',
      teamId,
      grant,
      pageId: '202122232425262',
    });
    assert.equal(badPage.status, 400, 'a page without an Instagram account');
    assert.equal(badPage.body.error.fields.pageId, 'Value specified incorrectly');
    const created = await org.admin.api.post('/api/channels', {
      type: 'instagram',
      name: 'IG',
      teamId,
      grant,
      pageId: meta.pageId,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.ok(meta.subscribed.has(meta.pageId));
    const shown = JSON.stringify((await org.admin.api.get(`/api/channels/${created.body.entity.id}`)).body);
    assert.ok(shown.includes(meta.igId) && shown.includes(meta.igUsername));
    assert.ok(
      !shown.includes(meta.pageToken) && !shown.includes(meta.userToken) && !shown.includes(meta.appSecret),
    );

    // An expired grant (1 hour) is refused.
    s.clock.advance(3601_000);
    const late = await org.admin.api.post('/api/channels', {
      type: 'instagram',
      name: 'IG2',
      teamId,
      grant,
      pageId: meta.pageId,
    });
    assert.equal(late.status, 400);
    assert.equal(late.body.error.fields.grant, 'Incorrect token/ID specified');
  });

  test('a refused login (declined, or the code exchange refused) comes back as accessDenied; a forged state is refused', async () => {
    const org = await createOrganisation(s);
    meta.refuseLogin = true;
    try {
      assert.equal((await login(org, 'instagram')).get('error'), 'accessDenied');
    } finally {
      meta.refuseLogin = false;
    }
    meta.failNext('/oauth/access_token', {
      status: 400,
      code: 100,
      message: 'Invalid verification code format.',
    });
    const refused = await login(org, 'facebook');
    assert.equal(refused.get('error'), 'accessDenied');
    assert.equal(refused.get('grant'), null);
    const forged = await fetch(`${s.url}/api/channels/oauth/instagram/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    assert.equal(forged.status, 403);
  });

  test('webhooks: the challenge with our verify token, X-Hub-Signature-256 on every POST, retries never duplicate', async () => {
    const { org, channelId, hook } = await connect('facebook');
    const get = (q: string) => fetch(`${s.url}/api/webhooks/facebook/${channelId}?${q}`);
    const ok = await get('hub.mode=subscribe&hub.verify_token=meta-verify-token-1&hub.challenge=42');
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), '42');
    assert.equal((await get('hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1')).status, 403);

    const payload = meta.payload('page', [meta.message('page', '5001', { text: 'Hello page' })]);
    assert.equal(await meta.deliver(hook, payload, null), 401);
    assert.equal(await meta.deliver(hook, payload, `sha256=${'0'.repeat(64)}`), 401);
    assert.equal((await chatsOf(org)).length, 0, 'nothing stored');
    assert.equal(await meta.deliver(hook, payload), 200);
    assert.equal(await meta.deliver(hook, payload), 200, 'a retry is answered too');
    const chats = await chatsOf(org);
    assert.equal(chats.length, 1);
    assert.equal(chats[0].client.externalId, '5001');
    assert.deepEqual(
      (await messagesOf(org, chats[0].id)).map((m: { text: string }) => m.text),
      ['Hello page'],
    );
    // An Instagram payload is not the Facebook channel's.
    assert.equal(
      await meta.deliver(hook, meta.payload('instagram', [meta.message('instagram', '5001', { text: 'x' })])),
      200,
    );
    assert.equal((await messagesOf(org, chats[0].id)).length, 1);
  });

  test('Instagram messages: text, images into our storage, story replies and mentions, quick replies, echoes ignored, odd ones visible', async () => {
    const { org, hook } = await connect('instagram');
    const from = '6001';
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const m = (body: Record<string, unknown>) => meta.message('instagram', from, body);
    const events = [
      m({ text: 'plain' }),
      m({ attachments: [{ type: 'image', payload: { url: meta.addCdnFile(jpg, 'image/jpeg') } }] }),
      m({ text: 'Nice!', reply_to: { story: { id: '1789', url: 'https://cdn.example/story1' } } }),
      m({ attachments: [{ type: 'story_mention', payload: { url: 'https://cdn.example/story2' } }] }),
      m({ text: 'Yes please', quick_reply: { payload: 'ORDER_YES' } }),
      m({ is_unsupported: true }),
      { ...m({ text: 'our own reply', is_echo: true }), sender: { id: meta.igId }, recipient: { id: from } },
    ];
    assert.equal(await meta.deliver(hook, meta.payload('instagram', events)), 200);
    const chat = (await chatsOf(org))[0];
    const got = await messagesOf(org, chat.id);
    assert.deepEqual(
      got.map((x: { text: string }) => x.text),
      [
        'plain',
        '',
        '[Instagram: reply to your story https://cdn.example/story1]\nNice!',
        '[Instagram: mentioned you in a story https://cdn.example/story2]',
        'Yes please',
        '[Instagram: unsupported message]',
      ],
    );
    const image = got[1].attachments[0];
    assert.equal(image.contentType, 'image/jpeg');
    assert.equal(image.name, 'image.jpg');
    const file = await fetch(s.url + image.url);
    assert.deepEqual(new Uint8Array(await file.arrayBuffer()), jpg);

    // Files keep their own names: from the CDN's Content-Disposition, else the link's last segment; a kind's name
    // takes the extension of the type the file came as.
    const { pdf } = MEDIA;
    const named = [
      m({
        attachments: [
          {
            type: 'file',
            payload: {
              url: meta.addCdnFile(pdf, 'application/pdf', {
                disposition: `attachment; filename="invoice.pdf"; filename*=UTF-8''%D0%A1%D1%87%D1%91%D1%82.pdf`,
              }),
            },
          },
        ],
      }),
      m({
        attachments: [
          {
            type: 'file',
            payload: { url: meta.addCdnFile(pdf, 'application/pdf', { path: '/Contract%202026.pdf' }) },
          },
        ],
      }),
      m({ attachments: [{ type: 'audio', payload: { url: meta.addCdnFile(MEDIA.ogg, 'audio/ogg') } }] }),
    ];
    assert.equal(await meta.deliver(hook, meta.payload('instagram', named)), 200);
    const files = (await messagesOf(org, chat.id))
      .slice(-3)
      .map((x: { attachments: { name: string }[] }) => x.attachments[0]?.name);
    assert.deepEqual(files, ['Счёт.pdf', 'Contract 2026.pdf', 'audio.ogg']);
  });

  test('replies: text and images with messaging_type RESPONSE, rate limits later, provider errors Undelivered, the 24-hour window', async () => {
    const { org, hook } = await connect('facebook');
    const op = await org.user({ role: 'OPERATOR' });
    await goOnline(op);
    const to = '7001';
    assert.equal(
      await meta.deliver(hook, meta.payload('page', [meta.message('page', to, { text: 'Hi' })])),
      200,
    );
    const chatId = (await chatsOf(org))[0].id;
    const { byId, waitStatus, send, sendRateLimited } = await replyTo(s, org, chatId);

    await waitStatus(await send({ text: 'Your order shipped' }), 'sent');
    assert.deepEqual(meta.sent.at(-1)?.body, {
      recipient: { id: to },
      messaging_type: 'RESPONSE',
      message: { text: 'Your order shipped' },
    });
    const key = await s.db.tx((q) =>
      saveFile(s.app, q, org.id, Buffer.from([0xff, 0xd8, 0xff, 9]), 'image/jpeg'),
    );
    const pic = await send({
      text: 'See',
      attachments: [
        { url: `http://localhost:3000/api/files/${key}`, name: 'p.jpg', contentType: 'image/jpeg' },
      ],
    });
    await waitStatus(pic, 'sent');
    const upload = meta.sent.at(-2);
    assert.deepEqual([...(upload?.files?.filedata?.bytes ?? [])], [0xff, 0xd8, 0xff, 9]);
    assert.deepEqual(upload?.body.message, {
      attachment: { type: 'image', payload: { is_reusable: false } },
    });
    assert.deepEqual(meta.sent.at(-1)?.body.message, { text: 'See' });

    meta.failNext('/messages', {
      status: 400,
      code: 613,
      message: 'Calls to this api have exceeded the rate limit.',
    });
    await sendRateLimited({ text: 'Slow down' }, 61_000);

    meta.failNext('/messages', { status: 400, code: 551, message: "This person isn't available right now." });
    const gone = await send({ text: 'Hello?' });
    await waitStatus(gone, 'undelivered');
    assert.equal((await byId(gone)).statusReason, "551: This person isn't available right now.");

    s.clock.advance(24 * 3600_000);
    const late = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Still there?' });
    assert.equal(late.status, 409);
    assert.equal(late.body.code, 'sessionEndedException');
    assert.equal(late.body.error.message, '24-hour session ended');
    assert.equal(
      await meta.deliver(hook, meta.payload('page', [meta.message('page', to, { text: 'Back' })])),
      200,
    );
    await waitStatus(await send({ text: 'Welcome back' }), 'sent');
    // The provider's own window refusal (10/2018278) is Undelivered with the reason, not retried.
    s.clock.advance(23 * 3600_000);
    const racing = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'Close call' });
    assert.equal(racing.status, 200);
    s.clock.advance(2 * 3600_000);
    await drainOutbox(s.app);
    await waitStatus(racing.body.entity.id, 'undelivered');
    assert.match((await byId(racing.body.entity.id)).statusReason, /^24-hour session ended \(10: /);
  });

  test('delivery and read marks: Messenger by mids and watermarks, Instagram seen up to a message; other clients untouched', async () => {
    // Messenger: three replies a second apart.
    const fb = await connect('facebook');
    const op = await fb.org.user({ role: 'OPERATOR' });
    await goOnline(op);
    const to = '7101';
    assert.equal(
      await meta.deliver(fb.hook, meta.payload('page', [meta.message('page', to, { text: 'Hi' })])),
      200,
    );
    const chatId = (await chatsOf(fb.org))[0].id;
    const { byId, waitStatus, send } = await replyTo(s, fb.org, chatId);
    const replies: { id: string; mid: string; at: number }[] = [];
    for (const text of ['One', 'Two', 'Three']) {
      const id = await send({ text });
      await waitStatus(id, 'sent');
      replies.push({ id, mid: meta.sent.at(-1)?.mid as string, at: Date.parse((await byId(id)).createdAt) });
      s.clock.advance(1_000);
    }
    const statuses = async () => Promise.all(replies.map(async (r) => (await byId(r.id)).status));
    const [one, two, three] = replies as [(typeof replies)[0], (typeof replies)[0], (typeof replies)[0]];
    const mark = (m: Parameters<FakeMeta['mark']>[2], from = to) =>
      meta.deliver(fb.hook, meta.payload('page', [meta.mark('page', from, m)]));

    // Delivered by mid: that one only (its watermark is before the others).
    assert.equal(await mark({ delivery: { mids: [one.mid], watermark: one.at - 1 } }), 200);
    await waitStatus(one.id, 'delivered');
    assert.deepEqual(await statuses(), ['delivered', 'sent', 'sent']);
    // A watermark alone: every reply sent before it.
    assert.equal(await mark({ delivery: { watermark: two.at + 1 } }), 200);
    await waitStatus(two.id, 'delivered');
    assert.deepEqual(await statuses(), ['delivered', 'delivered', 'sent']);
    // Another client's watermark touches nothing here; nor does a watermark that is no date.
    assert.equal(await mark({ read: { watermark: three.at + 1 } }, '7999'), 200);
    assert.equal(await mark({ read: { watermark: 1e20 } }), 200);
    assert.equal(await mark({ read: { watermark: -1 } }), 200);
    assert.deepEqual(await statuses(), ['delivered', 'delivered', 'sent']);
    // Read up to the watermark: all three.
    assert.equal(await mark({ read: { watermark: three.at } }), 200);
    await waitStatus(three.id, 'read');
    assert.deepEqual(await statuses(), ['read', 'read', 'read']);
    // A late delivery mark moves nothing back.
    assert.equal(await mark({ delivery: { mids: [three.mid], watermark: three.at + 1 } }), 200);
    assert.deepEqual(await statuses(), ['read', 'read', 'read']);

    // Instagram: the seen mark names the last reply seen; the earlier ones are read too, the later one not.
    const ig = await connect('instagram');
    const igOp = await ig.org.user({ role: 'OPERATOR' });
    await goOnline(igOp);
    assert.equal(
      await meta.deliver(
        ig.hook,
        meta.payload('instagram', [meta.message('instagram', '7102', { text: 'Hey' })]),
      ),
      200,
    );
    const igChat = (await chatsOf(ig.org))[0].id;
    const igReply = await replyTo(s, ig.org, igChat);
    const sentIds: string[] = [];
    const mids: string[] = [];
    for (const text of ['A', 'B', 'C']) {
      const id = await igReply.send({ text });
      await igReply.waitStatus(id, 'sent');
      sentIds.push(id);
      mids.push(meta.sent.at(-1)?.mid as string);
      s.clock.advance(1_000);
    }
    const seen = (mid: string) =>
      meta.deliver(ig.hook, meta.payload('instagram', [meta.mark('instagram', '7102', { read: { mid } })]));
    assert.equal(await seen(mids[1] as string), 200);
    await igReply.waitStatus(sentIds[1] as string, 'read');
    const igStatuses = await Promise.all(sentIds.map(async (id) => (await igReply.byId(id)).status));
    assert.deepEqual(igStatuses, ['read', 'read', 'sent']);
    // A seen mark naming no message of ours changes nothing and is still acknowledged.
    assert.equal(await seen('m_unknown'), 200);
    assert.equal((await igReply.byId(sentIds[2] as string)).status, 'sent');
  });

  test('the long-lived token is renewed a week before it expires, with the page token; a refusal is a problem', async () => {
    const { org, channelId } = await connect('facebook');
    const stored = async () => {
      const [row] = await s.db.query<{ secrets: string; settings: { tokenExpiresAt: string } }>(
        'select secrets, settings from channels where id = $1',
        [channelId],
      );
      return {
        secrets: JSON.parse(decryptSecret(s.app.config.secretKey, row?.secrets ?? '')),
        expiresAt: Date.parse(row?.settings.tokenExpiresAt ?? ''),
      };
    };
    const before = await stored();
    assert.equal(before.expiresAt, s.clock.now().getTime() + 5_183_944_000, 'the login says when it expires');
    const exchanges = () =>
      meta.requests.filter((r) => r.query.get('grant_type') === 'fb_exchange_token').length;
    const asked = exchanges();
    await refreshProviderTokens(s.app);
    assert.equal(exchanges(), asked, 'not due yet: nothing asked');
    s.clock.advance(53 * 24 * 3600_000);
    await refreshProviderTokens(s.app);
    const after = await stored();
    assert.notEqual(after.secrets.userAccessToken, before.secrets.userAccessToken, 'renewed at Meta');
    assert.ok(meta.userTokens.has(after.secrets.userAccessToken));
    assert.equal(after.secrets.pageAccessToken, meta.pageToken);
    assert.equal(after.expiresAt, s.clock.now().getTime() + 5_183_944_000, '60 days from now');
    // Renewed once: the next run finds nothing due for it.
    await refreshProviderTokens(s.app);
    assert.equal((await stored()).secrets.userAccessToken, after.secrets.userAccessToken);
    // The login is revoked at Meta: the next renewal is refused, and administrators see a channel problem.
    // Read as the banner reads them (the sessions of the test expired with the clock's 53-day jumps).
    const problems = async () => (await listChannelProblems(s.app, org.id)).items;
    assert.deepEqual(await problems(), []);
    meta.userTokens.delete(after.secrets.userAccessToken);
    s.clock.advance(53 * 24 * 3600_000);
    await refreshProviderTokens(s.app);
    const [problem] = await problems();
    assert.equal(problem?.channelId, channelId);
    assert.equal(problem?.kind, 'token_refused');
    assert.match(problem?.detail ?? '', /^Token renewal refused: /);
    assert.equal(
      (await stored()).secrets.userAccessToken,
      after.secrets.userAccessToken,
      'the token is kept',
    );
    // Allowed again: the renewal works and the problem ends.
    meta.userTokens.add(after.secrets.userAccessToken);
    await refreshProviderTokens(s.app);
    assert.deepEqual(await problems(), []);
  });

  test('client names come from the user profile (Instagram: name or username; Messenger: first and last name)', async () => {
    const ig = await connect('instagram');
    const seen = meta.requests.length;
    meta.profiles.set('7001', { name: 'Maria Sokolova', username: 'masha.s' });
    meta.profiles.set('7002', { username: 'no.name.here' });
    for (const from of ['7001', '7002', '7003'])
      assert.equal(
        await meta.deliver(
          ig.hook,
          meta.payload('instagram', [meta.message('instagram', from, { text: 'Hi' })]),
        ),
        200,
      );
    const names = async (org: TestOrg) =>
      (await chatsOf(org)).map((c: { client: { name: string } }) => c.client.name).sort();
    assert.deepEqual(await names(ig.org), ['Instagram 7003', 'Maria Sokolova', 'no.name.here']);
    const asked = meta.requests.slice(seen).filter((r) => r.method === 'GET' && r.path.endsWith('/7001'));
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.query.get('fields'), 'name,username');

    const fb = await connect('facebook');
    meta.profiles.set('8001', { first_name: 'Petr', last_name: 'Ivanov' });
    meta.failNext('/8002', { status: 500, code: 2, message: 'Service temporarily unavailable' });
    for (const from of ['8001', '8002'])
      assert.equal(
        await meta.deliver(fb.hook, meta.payload('page', [meta.message('page', from, { text: 'Hi' })])),
        200,
        'a failed lookup stores the message anyway',
      );
    assert.deepEqual(await names(fb.org), ['Facebook 8002', 'Petr Ivanov']);
  });
});
