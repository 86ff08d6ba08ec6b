import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import { WebSocket } from 'ws';
import { drainOutbox } from '../../src/jobs/outbox.ts';
import {
  createOrganisation,
  startTestServer,
  type TestOrg,
  type TestServer,
  type TestUser,
} from '../helpers.ts';
import { goOnline, inbound, makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';

/** Service rating: assessment settings, the request on close, the one-time link, once per session, the widget. */
describe('service rating', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  type Setup = { org: TestOrg; operator: TestUser; ch: TestChannel; categoryId: string };
  async function setup(): Promise<Setup> {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const operator = await org.user({ teams: [teamId] });
    await goOnline(operator);
    const ch = await makeChannel(org, teamId);
    const categoryId = (await org.admin.api.post('/api/categories', { name: 'General' })).body.entity.id;
    return { org, operator, ch, categoryId };
  }
  const assess = (org: TestOrg, id: string, assessment: Record<string, unknown>) =>
    org.admin.api.patch(`/api/channels/${id}`, { assessment });
  async function chatOf(x: Setup, client: string, text: string) {
    const res = await inbound(s, x.ch, { client, text });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.entity.chatId as string;
  }
  const close = (x: Setup, chatId: string) =>
    x.operator.api.post(`/api/chats/${chatId}/close`, { categoryId: x.categoryId });
  const linksIn = async (x: Setup, chatId: string) =>
    (
      (await x.org.admin.api.get(`/api/chats/${chatId}/messages?limit=100`)).body.entity.items as {
        text: string;
      }[]
    )
      .map((m) => /\/link-action\/([0-9a-f-]{36})$/m.exec(m.text)?.[1])
      .filter((u): u is string => !!u);

  test('assessment is set with PATCH {assessment}, needs the plan option, and shows on the channel', async () => {
    const x = await setup();
    const res = await assess(x.org, x.ch.id, { enabled: true, beforeEnd: false, text: 'How did we do?' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.entity.assessment, { enabled: true, beforeEnd: false, text: 'How did we do?' });
    assert.equal(res.body.entity.ratingMessage, 'How did we do?');
    const bad = await assess(x.org, x.ch.id, { enabled: 'yes' });
    assert.equal(bad.status, 400);
    const poor = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_QUALITY_ASSESSMENT'),
    });
    const team = await makeTeam(poor);
    const ch = await makeChannel(poor, team);
    const refused = await assess(poor, ch.id, { enabled: true });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'optionUnavailableException');
    assert.equal((await poor.admin.api.get(`/api/channels/${ch.id}`)).body.entity.assessment.enabled, false);
  });

  test('closing asks once per session with a one-time link; 200, then 409 used, 404 unknown or expired', async () => {
    const x = await setup();
    const off = await chatOf(x, 'c-off', 'no rating here');
    assert.equal((await close(x, off)).status, 200);
    assert.deepEqual(await linksIn(x, off), [], 'assessment off: nothing asked');

    await assess(x.org, x.ch.id, { enabled: true, text: 'Please rate us' });
    const chatId = await chatOf(x, 'c-1', 'Hello');
    const closed = await close(x, chatId);
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    const [uuid, ...more] = await linksIn(x, chatId);
    assert.ok(uuid, 'the client got the link');
    assert.deepEqual(more, []);
    const msgs = (await x.org.admin.api.get(`/api/chats/${chatId}/messages?limit=100`)).body.entity.items;
    const ask = msgs.find((m: { text: string }) => m.text.includes(uuid));
    assert.equal(ask.text, `Please rate us\nhttp://localhost:3000/link-action/${uuid}`);
    await drainOutbox(s.app);

    assert.deepEqual((await s.api.get(`/api/link-actions/${uuid}`)).body.entity, {
      uuid,
      used: false,
      score: null,
      value: null,
    });
    const bad = await s.api.post(`/api/link-actions/${uuid}`, { score: 6 });
    assert.equal(bad.status, 400);
    const rated = await s.api.post(`/api/link-actions/${uuid}`, { score: 5 });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    assert.equal(rated.body.entity.value, 'EXCELLENT');
    const again = await s.api.post(`/api/link-actions/${uuid}`, { score: 1 });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'ratingAlreadySentException');
    assert.equal(again.body.error.message, 'Rating already sent');
    assert.equal((await s.api.get(`/api/link-actions/${uuid}`)).body.entity.used, true);
    assert.equal(
      (await s.api.post('/api/link-actions/00000000-0000-4000-8000-000000000000', { score: 3 })).status,
      404,
    );

    // The rating is on the chat, for whoever may read it, and for no other organisation.
    const ratings = (await x.org.admin.api.get(`/api/chats/${chatId}/ratings`)).body.entity;
    assert.equal(ratings.length, 1);
    assert.equal(ratings[0].value, 'EXCELLENT');
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.get(`/api/chats/${chatId}/ratings`)).status, 404);

    // The client writes again: a new session, asked again on its close; its link expires unused.
    const reopened = await chatOf(x, 'c-1', 'One more thing');
    const again2 = await x.org.admin.api.post(`/api/chats/${reopened}/close`, { categoryId: x.categoryId });
    assert.equal(again2.status, 200, JSON.stringify(again2.body));
    const links = [...new Set([...(await linksIn(x, chatId)), ...(await linksIn(x, reopened))])];
    assert.equal(links.length, 2, 'one request per session');
    const second = links.find((u) => u !== uuid) as string;
    s.clock.advance(31 * 86_400_000);
    assert.equal((await s.api.post(`/api/link-actions/${second}`, { score: 3 })).status, 404);
    assert.equal((await s.api.get(`/api/link-actions/${second}`)).status, 404);
  });

  test('a site chat visitor gets rating buttons on close and rates once, only their own', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const operator = await org.user({ teams: [teamId] });
    await goOnline(operator);
    const categoryId = (await org.admin.api.post('/api/categories', { name: 'General' })).body.entity.id;
    const ch = (
      await org.admin.api.post('/api/channels', {
        type: 'site_chat',
        name: 'Site',
        teamId,
        assessment: { enabled: true, text: 'Rate our chat' },
      })
    ).body.entity;
    assert.equal(ch.assessment.enabled, true);
    assert.equal((await s.api.get(`/api/widget/${ch.id}/config`)).body.entity.assessment, true);
    const visitor = async () =>
      (await s.api.post(`/api/widget/${ch.id}/visitors`)).body.entity.token as string;
    const token = await visitor();
    const q = `token=${encodeURIComponent(token)}`;
    await s.api.post(`/api/widget/${ch.id}/messages?${q}`, { clientMessageId: 'first-message', text: 'Hi' });
    const chatId = (await operator.api.get('/api/chats?filter=assigned')).body.entity.items[0].id;
    const ws = new WebSocket(`${s.url.replace('http', 'ws')}/api/widget/${ch.id}/ws?${q}`);
    const frames: { type: string; rating?: { uuid: string; text: string } }[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once('open', r));
    assert.equal((await operator.api.post(`/api/chats/${chatId}/close`, { categoryId })).status, 200);
    const until = Date.now() + 5000;
    while (!frames.some((f) => f.type === 'rating') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    const rating = frames.find((f) => f.type === 'rating')?.rating;
    ws.close();
    assert.ok(rating, JSON.stringify(frames));
    assert.equal(rating.text, 'Rate our chat');
    const texts = (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items.map(
      (m: { text: string }) => m.text,
    );
    assert.ok(
      !texts.some((t: string) => t.includes('/link-action/')),
      'the widget asks with buttons, not a link',
    );
    assert.deepEqual((await s.api.get(`/api/widget/${ch.id}/messages?${q}`)).body.entity.rating, rating);
    const stranger = await visitor();
    const foreign = await s.api.post(`/api/widget/${ch.id}/rating?token=${encodeURIComponent(stranger)}`, {
      uuid: rating.uuid,
      score: 2,
    });
    assert.equal(foreign.status, 404);
    const ok = await s.api.post(`/api/widget/${ch.id}/rating?${q}`, { uuid: rating.uuid, score: 4 });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(
      (await s.api.post(`/api/widget/${ch.id}/rating?${q}`, { uuid: rating.uuid, score: 4 })).status,
      409,
    );
    assert.equal((await s.api.get(`/api/widget/${ch.id}/messages?${q}`)).body.entity.rating, null);
    assert.equal((await org.admin.api.get(`/api/chats/${chatId}/ratings`)).body.entity[0].value, 'GOOD');
  });

  const historyOf = async (org: TestOrg, chatId: string) =>
    (await org.admin.api.get(`/api/chats/${chatId}/history`)).body.entity.items as {
      kind: string;
      actorId: string | null;
      score: number | null;
    }[];

  test('an operator asks before the end once per session (409 after), the close asks no more, history and top bar show it', async () => {
    const x = await setup();
    const chatId = await chatOf(x, 'c-before', 'Hello');
    const ask = () => x.operator.api.post(`/api/chats/${chatId}/rating-request`);
    // The channel does not allow a request before the end: 404, nothing sent.
    await assess(x.org, x.ch.id, { enabled: true, beforeEnd: false, text: 'Rate us' });
    const state0 = await x.operator.api.get(`/api/chats/${chatId}/rating-request`);
    assert.equal(state0.status, 200, JSON.stringify(state0.body));
    assert.equal(state0.body.entity.canAsk, false);
    const refused = await ask();
    assert.equal(refused.status, 404);
    assert.equal(refused.body.code, 'qualityAssessmentNotFoundException');
    assert.deepEqual(await linksIn(x, chatId), []);

    await assess(x.org, x.ch.id, { enabled: true, beforeEnd: true, text: 'Rate us' });
    assert.equal((await x.operator.api.get(`/api/chats/${chatId}/rating-request`)).body.entity.canAsk, true);
    // Someone who may not act on the chat (another operator, not of its team) cannot ask.
    const stranger = await x.org.user({ role: 'OPERATOR' });
    assert.equal((await stranger.api.post(`/api/chats/${chatId}/rating-request`)).status, 404);

    const asked = await ask();
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.entity.canAsk, false);
    assert.ok(asked.body.entity.requestedAt);
    assert.equal(asked.body.entity.score, null);
    const again = await ask();
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'ratingLimitExceededException');
    const [uuid, ...more] = await linksIn(x, chatId);
    assert.ok(uuid, 'the link went to the client');
    assert.deepEqual(more, []);
    // Closing the same session asks no second time.
    assert.equal((await close(x, chatId)).status, 200);
    assert.equal((await linksIn(x, chatId)).length, 1);

    assert.equal((await s.api.post(`/api/link-actions/${uuid}`, { score: 4 })).status, 200);
    const state = (await x.org.admin.api.get(`/api/chats/${chatId}/rating-request`)).body.entity;
    assert.deepEqual([state.score, state.value, state.canAsk], [4, 'GOOD', false]);
    const history = await historyOf(x.org, chatId);
    const requested = history.filter((h) => h.kind === 'rating_requested');
    assert.equal(requested.length, 1);
    assert.equal(requested[0].actorId, x.operator.id);
    assert.deepEqual(
      history.filter((h) => h.kind === 'rated').map((h) => h.score),
      [4],
    );
  });

  test('asking before the end needs the plan option and an open chat; another organisation gets 404', async () => {
    const x = await setup();
    await assess(x.org, x.ch.id, { enabled: true, beforeEnd: true, text: 'Rate us' });
    const chatId = await chatOf(x, 'c-closed', 'Hello');
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.post(`/api/chats/${chatId}/rating-request`)).status, 404);
    assert.equal((await other.admin.api.get(`/api/chats/${chatId}/rating-request`)).status, 404);
    assert.equal((await close(x, chatId)).status, 200);
    const closed = await x.org.admin.api.post(`/api/chats/${chatId}/rating-request`);
    assert.equal(closed.status, 409);
    assert.equal(closed.body.code, 'chatClosedException');
    const history = await historyOf(x.org, chatId);
    assert.equal(history.filter((h) => h.kind === 'rating_requested').length, 1, 'asked once, on close');

    const poor = await createOrganisation(s, {
      options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_QUALITY_ASSESSMENT'),
    });
    const team = await makeTeam(poor);
    const ch = await makeChannel(poor, team);
    const res = await inbound(s, ch, { client: 'c-poor', text: 'Hi' });
    const denied = await poor.admin.api.post(`/api/chats/${res.body.entity.chatId}/rating-request`);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'optionUnavailableException');
  });

  test("the channel's 'dialog rating' automatic reply, when on, is the words that ask", async () => {
    const x = await setup();
    await assess(x.org, x.ch.id, { enabled: true, beforeEnd: false, text: 'Assessment text' });
    const off = { enabled: false, text: '' };
    const replies = {
      online: off,
      offline: off,
      rating: { enabled: true, text: 'How was this dialog?' },
      holding: { ...off, waitMinutes: 2 },
    };
    const put = await x.org.admin.api.put(`/api/channels/${x.ch.id}/auto-replies`, replies);
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const chatId = await chatOf(x, 'c-auto-text', 'Hello');
    assert.equal((await close(x, chatId)).status, 200);
    const messages = (await x.org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items as {
      text: string;
    }[];
    const ask = messages.find((m) => m.text.includes('/link-action/'));
    assert.match(ask?.text ?? '', /^How was this dialog\?\n/);
  });
});
