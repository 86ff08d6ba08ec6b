import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CLIENT_STATUS_COLOR_NAMES, CLIENT_STATUS_COLORS } from '@smartconnect/contracts';
import { type FakeTelegram, startFakeTelegram } from '../fakes/telegram.ts';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import {
  goOnline,
  inbound,
  makeChannel,
  makeTeam,
  recordEvents,
  type TestChannel,
} from './chats-fixtures.ts';

/** A client who wrote once on `ch`: their chat id and client id. */
async function clientOn(
  s: TestServer,
  org: TestOrg,
  ch: TestChannel,
  externalId: string,
  name = 'Ann Client',
) {
  const res = await inbound(s, ch, { client: externalId, name });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const chatId = res.body.entity.chatId as string;
  const chat = await org.admin.api.get(`/api/chats/${chatId}`);
  return { chatId, clientId: chat.body.entity.client.id as string };
}

/** WCAG relative luminance contrast of a #RRGGBB colour against white. */
function contrastWithWhite(hex: string) {
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const [r, g, b] = [1, 3, 5].map((i) => lin(Number.parseInt(hex.slice(i, i + 2), 16) / 255));
  const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (l + 0.05);
}

describe('client profiles', () => {
  let s: TestServer;
  let tg: FakeTelegram;
  before(async () => {
    tg = await startFakeTelegram();
    s = await startTestServer({ env: { TELEGRAM_API_BASE_URL: tg.baseUrl } });
  });
  after(async () => {
    await s.close();
    await tg.close();
  });

  test('the profile: name, tags, fields, contacts, companies, manager, spam, session status, comments', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const { clientId } = await clientOn(s, org, ch, 'p-1');
    const other = await clientOn(s, org, ch, 'p-2', 'Bob');
    const api = org.admin.api;
    const manager = await org.user({ name: 'Mona Manager' });
    const company = (await api.post('/api/companies', { name: 'Acme Ltd' })).body.entity;
    assert.equal(
      (await api.post('/api/companies', { name: 'acme ltd' })).body.code,
      'companyAlreadyExistsException',
    );

    const res = await api.patch(`/api/clients/${clientId}`, {
      name: '  Anna Petrova ',
      tags: ['vip', 'wholesale'],
      fields: [{ name: 'City', value: 'Riga' }],
      contacts: [
        { kind: 'phone', value: '+7 (912) 345-67-89' },
        { kind: 'email', value: 'Anna@Example.com' },
      ],
      companyIds: [company.id],
      managerId: manager.id,
      spam: true,
      sessionStatus: 'POTENTIAL_CLIENT',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = res.body.entity;
    assert.equal(p.name, 'Anna Petrova');
    assert.deepEqual(p.tags, ['vip', 'wholesale']);
    assert.deepEqual(p.fields, [{ name: 'City', value: 'Riga' }]);
    assert.deepEqual(p.details, [
      { kind: 'phone', value: '+79123456789' },
      { kind: 'email', value: 'anna@example.com' },
    ]);
    assert.deepEqual(p.companies, [{ id: company.id, name: 'Acme Ltd' }]);
    assert.deepEqual(p.manager, { id: manager.id, name: 'Mona Manager' });
    assert.equal(p.personalManagerId, manager.id);
    assert.equal(p.spam, true);
    assert.equal(p.sessionStatus, 'POTENTIAL_CLIENT');
    // §5 profile name; §5 tag entry; duplicates; a contact another client owns.
    for (const name of ['', '   ', 'x'.repeat(33)]) {
      const bad = await api.patch(`/api/clients/${clientId}`, { name });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.fields.name, 'Name specified incorrectly');
    }
    assert.equal((await api.patch(`/api/clients/${clientId}`, { name: 'x'.repeat(32) })).status, 200);
    const badTag = await api.patch(`/api/clients/${clientId}`, { tags: [''] });
    assert.equal(badTag.body.error.fields['tags.0'], 'Incorrect value entered');
    assert.equal(
      (await api.patch(`/api/clients/${clientId}`, { tags: ['a', 'A'] })).body.code,
      'tagAlreadyExistsException',
    );
    const dupField = await api.patch(`/api/clients/${clientId}`, {
      fields: [
        { name: 'x', value: '1' },
        { name: 'X', value: '2' },
      ],
    });
    assert.equal(dupField.body.code, 'fieldAlreadyExistsException');
    const taken = await api.patch(`/api/clients/${other.clientId}`, {
      contacts: [{ kind: 'email', value: 'anna@EXAMPLE.com' }],
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'contactAlreadyExistsException');
    const badPhone = await api.patch(`/api/clients/${other.clientId}`, {
      contacts: [{ kind: 'phone', value: '12' }],
    });
    assert.equal(badPhone.body.error.fields['contacts.0.value'], 'Phone number specified incorrectly');
    assert.equal(
      (await api.patch(`/api/clients/${clientId}`, { companyIds: ['00000000-0000-7000-8000-000000000000'] }))
        .body.code,
      'companyNotFoundException',
    );
    // Comments: author and time, newest first.
    const c1 = await api.post(`/api/clients/${clientId}/comments`, { text: 'Called back' });
    assert.equal(c1.status, 200);
    s.clock.advance(1000);
    const c2 = await api.post(`/api/clients/${clientId}/comments`, { text: 'Sent the offer' });
    assert.deepEqual(
      c2.body.entity.comments.map((c: { text: string; author: { name: string } }) => [c.text, c.author.name]),
      [
        ['Sent the offer', 'Admin'],
        ['Called back', 'Admin'],
      ],
    );
    assert.equal((await api.post(`/api/clients/${clientId}/comments`, { text: ' ' })).status, 400);
    // Another organisation sees nothing of it.
    const stranger = await createOrganisation(s);
    assert.equal((await stranger.admin.api.get(`/api/clients/${clientId}`)).status, 404);
    assert.equal((await stranger.admin.api.patch(`/api/clients/${clientId}`, { name: 'X' })).status, 404);
    assert.equal(
      (await stranger.admin.api.post(`/api/clients/${clientId}/comments`, { text: 'x' })).status,
      404,
    );
    // Plan options: without OPTION_PROFILE only the name and manager change; comments and statuses need theirs.
    const bare = await createOrganisation(s, { options: [] });
    const bareClient = await clientOn(s, bare, await makeChannel(bare, await makeTeam(bare)), 'bare');
    assert.equal(
      (await bare.admin.api.patch(`/api/clients/${bareClient.clientId}`, { name: 'Ok' })).status,
      200,
    );
    assert.equal(
      (await bare.admin.api.patch(`/api/clients/${bareClient.clientId}`, { tags: ['x'] })).body.code,
      'optionUnavailableException',
    );
    const lean = await createOrganisation(s, { options: ['OPTION_PROFILE'] });
    const leanCh = await makeChannel(lean, await makeTeam(lean));
    const leanClient = await clientOn(s, lean, leanCh, 'lean');
    assert.equal(
      (await lean.admin.api.post(`/api/clients/${leanClient.clientId}/comments`, { text: 'x' })).body.code,
      'optionUnavailableException',
    );
    assert.equal(
      (await lean.admin.api.patch(`/api/clients/${leanClient.clientId}`, { statusId: null })).body.code,
      'optionUnavailableException',
    );
  });

  test('customer statuses: the 13-colour palette; a status in use cannot be deleted', async () => {
    assert.equal(CLIENT_STATUS_COLOR_NAMES.length, 13);
    for (const [name, hex] of Object.entries(CLIENT_STATUS_COLORS))
      assert.ok(contrastWithWhite(hex) >= 4.5, `${name} ${hex}: ${contrastWithWhite(hex).toFixed(2)}`);
    const org = await createOrganisation(s);
    const api = org.admin.api;
    const vip = await api.post('/api/client-statuses', { name: 'VIP', color: 'violet' });
    assert.equal(vip.status, 200, JSON.stringify(vip.body));
    assert.equal(vip.body.entity.hex, CLIENT_STATUS_COLORS.violet);
    assert.equal((await api.post('/api/client-statuses', { name: 'x', color: 'purple' })).status, 400);
    assert.equal((await api.post('/api/client-statuses', { name: '', color: 'red' })).status, 400);
    assert.equal((await api.post('/api/client-statuses', { name: 'vip', color: 'red' })).status, 409);
    const ch = await makeChannel(org, await makeTeam(org));
    const { clientId } = await clientOn(s, org, ch, 's-1');
    const set = await api.patch(`/api/clients/${clientId}`, { statusId: vip.body.entity.id });
    assert.equal(set.body.entity.status.name, 'VIP');
    assert.equal(set.body.entity.status.color, 'violet');
    // Another organisation can neither use nor delete it.
    const other = await createOrganisation(s);
    const otherClient = await clientOn(s, other, await makeChannel(other, await makeTeam(other)), 's-o');
    const foreign = await other.admin.api.patch(`/api/clients/${otherClient.clientId}`, {
      statusId: vip.body.entity.id,
    });
    assert.equal(foreign.body.code, 'statusNotFoundException');
    assert.equal((await other.admin.api.delete(`/api/client-statuses/${vip.body.entity.id}`)).status, 404);
    const del = await api.delete(`/api/client-statuses/${vip.body.entity.id}`);
    assert.equal(del.status, 409);
    assert.equal(del.body.code, 'profileStatusInUseException');
    assert.equal(
      del.body.error.message,
      'An active status cannot be deleted until it is removed from all clients',
    );
    await api.patch(`/api/clients/${clientId}`, { statusId: null });
    assert.equal((await api.delete(`/api/client-statuses/${vip.body.entity.id}`)).status, 200);
    assert.equal((await api.get('/api/client-statuses')).body.entity.items.length, 0);
    // An operator (no AUTHORITY_PROFILE_STATUS) reads statuses but cannot manage them.
    const op = await org.user({ role: 'OPERATOR' });
    assert.equal((await op.api.get('/api/client-statuses')).status, 200);
    assert.equal((await op.api.post('/api/client-statuses', { name: 'A', color: 'red' })).status, 403);
  });

  test('the clients list: search by name, phone, e-mail, tag; filters; keyset pages', async () => {
    const org = await createOrganisation(s);
    const api = org.admin.api;
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await clientOn(s, org, ch, `l-${i}`, `Client ${i}`)).clientId);
    const status = (await api.post('/api/client-statuses', { name: 'Hot', color: 'red' })).body.entity;
    const company = (await api.post('/api/companies', { name: 'Globex' })).body.entity;
    const mgr = await org.user({ name: 'Max' });
    await api.patch(`/api/clients/${ids[1]}`, {
      name: 'Zoe Smith',
      tags: ['vip'],
      contacts: [{ kind: 'phone', value: '+44 20 7946 0958' }],
      statusId: status.id,
    });
    await api.patch(`/api/clients/${ids[2]}`, {
      contacts: [{ kind: 'email', value: 'zed@example.org' }],
      companyIds: [company.id],
      managerId: mgr.id,
    });
    const found = async (qs: string) =>
      (await api.get(`/api/clients?${qs}`)).body.entity.items.map((c: { id: string }) => c.id);
    assert.deepEqual(await found('search=zoe'), [ids[1]]);
    assert.deepEqual(await found('search=vip'), [ids[1]]);
    assert.deepEqual(await found(`search=${encodeURIComponent('+442079460958')}`), [ids[1]]);
    assert.deepEqual(await found('search=ZED%40example.org'), [ids[2]]);
    assert.deepEqual(await found(`statusId=${status.id}`), [ids[1]]);
    assert.deepEqual(await found(`companyId=${company.id}`), [ids[2]]);
    assert.deepEqual(await found(`managerId=${mgr.id}`), [ids[2]]);
    assert.deepEqual(await found('search=nobody'), []);
    assert.deepEqual(await found('search=100%25'), []);
    // Pages of 3, newest first, each id once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api.get(`/api/clients?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      seen.push(...res.body.entity.items.map((c: { id: string }) => c.id));
      cursor = res.body.entity.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse());
    // The create-chat lookup (`q`) keeps its shape.
    const lookup = await api.get('/api/clients?q=Client');
    assert.equal(lookup.status, 200);
    assert.ok(lookup.body.entity.items[0].contacts[0].channelName);
    // An operator lists only the clients they handled; without OPTION_PROFILE no list.
    const op = await org.user({ role: 'OPERATOR', teams: [teamId] });
    assert.deepEqual((await op.api.get('/api/clients')).body.entity.items, []);
    const lean = await createOrganisation(s, { options: [] });
    assert.equal((await lean.admin.api.get('/api/clients')).body.code, 'optionUnavailableException');
    // Another organisation's list does not hold them.
    const other = await createOrganisation(s);
    assert.deepEqual((await other.admin.api.get('/api/clients?search=zoe')).body.entity.items, []);
  });

  test('blacklist: a blocked client’s messages are stored but open no dialog and reach no operator', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'round_robin' });
    const op = await org.user({ role: 'OPERATOR', teams: [teamId] });
    await goOnline(op);
    const ch = await makeChannel(org, teamId);
    const { chatId, clientId } = await clientOn(s, org, ch, 'b-1', 'Spammer');
    const block = await org.admin.api.post('/api/blacklist', { clientId });
    assert.equal(block.status, 200, JSON.stringify(block.body));
    assert.equal(block.body.entity.blocked, true);
    // The open dialog closed.
    assert.equal((await org.admin.api.get(`/api/chats/${chatId}`)).body.entity.status, 'closed');
    const rec = recordEvents(s);
    const res = await inbound(s, ch, { client: 'b-1', name: 'Spammer', text: 'buy now' });
    rec.stop();
    assert.equal(res.status, 200);
    assert.equal(res.body.entity.chatId, chatId, 'kept in their latest dialog');
    assert.deepEqual(
      rec.events.map((e) => e.type),
      [],
      'no event reaches anyone',
    );
    assert.equal((await org.admin.api.get(`/api/chats/${chatId}`)).body.entity.status, 'closed');
    const msgs = await org.admin.api.get(`/api/clients/${clientId}/chats/${chatId}/messages`);
    assert.deepEqual(
      msgs.body.entity.items.map((m: { text: string }) => m.text),
      ['Hello', 'buy now'],
    );
    assert.deepEqual((await op.api.get('/api/chats?filter=waiting')).body.entity.items, []);
    const listed = await org.admin.api.get('/api/clients?blocked=true');
    assert.deepEqual(
      listed.body.entity.items.map((c: { id: string }) => c.id),
      [clientId],
    );
    // Unblocked: the next message opens a dialog for an operator as usual.
    const unblock = await org.admin.api.delete(`/api/blacklist/${clientId}`);
    assert.equal(unblock.body.entity.blocked, false);
    assert.deepEqual(
      unblock.body.entity.history.map((h: { kind: string }) => h.kind),
      ['unblocked', 'blocked'],
    );
    const again = await inbound(s, ch, { client: 'b-1', text: 'sorry' });
    assert.notEqual(again.body.entity.chatId, chatId);
    const chat = (await org.admin.api.get(`/api/chats/${again.body.entity.chatId}`)).body.entity;
    assert.notEqual(chat.status, 'closed');
    // Another organisation cannot block them.
    const other = await createOrganisation(s);
    assert.equal((await other.admin.api.post('/api/blacklist', { clientId })).status, 404);
  });

  test('blacklist: a client blocked before their first dialog on a channel gets no dialog there', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const chA = await makeChannel(org, teamId);
    const { clientId } = await clientOn(s, org, chA, 'bb-1');
    await org.admin.api.post('/api/blacklist', { clientId });
    // A second message on the same channel after the first dialog was closed by blocking, then the profile holds
    // all of them; the waiting queue holds none.
    await inbound(s, chA, { client: 'bb-1', text: 'one' });
    await inbound(s, chA, { client: 'bb-1', text: 'two' });
    const chats = (await org.admin.api.get(`/api/clients/${clientId}/chats`)).body.entity.items;
    assert.equal(chats.length, 1);
    assert.equal(chats[0].status, 'closed');
    assert.deepEqual((await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items, []);
  });

  test('blacklist on a Telegram channel: the update is stored on the profile, no dialog opens', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const created = await org.admin.api.post('/api/channels', {
      type: 'telegram',
      name: 'Bot',
      teamId,
      token: tg.token,
      updatesVia: 'webhook',
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const hook = `${s.url}/api/webhooks/telegram/${created.body.entity.id}`;
    const secret = tg.webhook?.secretToken ?? '';
    assert.equal(
      await tg.deliver(tg.updates.text({ id: 4242, first_name: 'Troll' }, 'first'), hook, secret),
      200,
    );
    const [chat] = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;
    assert.equal((await org.admin.api.post('/api/blacklist', { clientId: chat.client.id })).status, 200);
    assert.equal(
      await tg.deliver(tg.updates.text({ id: 4242, first_name: 'Troll' }, 'second'), hook, secret),
      200,
    );
    assert.deepEqual((await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items, []);
    const msgs = await org.admin.api.get(`/api/clients/${chat.client.id}/chats/${chat.id}/messages`);
    assert.deepEqual(
      msgs.body.entity.items.map((m: { text: string }) => m.text),
      ['first', 'second'],
    );
  });

  test('blacklist on a site-chat channel: the visitor’s message is stored, no dialog opens', async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await org.admin.api.post('/api/channels', { type: 'site_chat', name: 'Site', teamId });
    assert.equal(ch.status, 200, JSON.stringify(ch.body));
    const base = `/api/widget/${ch.body.entity.id}`;
    const v = (await s.api.post(`${base}/visitors`)).body.entity as { token: string };
    const say = (text: string) =>
      s.api.call(
        'POST',
        `${base}/messages?token=${encodeURIComponent(v.token)}`,
        JSON.stringify({ clientMessageId: `cm-${text}`, text, name: 'Visitor' }),
        { 'content-type': 'text/plain' },
      );
    assert.equal((await say('first')).status, 200);
    const [chat] = (await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items;
    assert.equal((await org.admin.api.post('/api/blacklist', { clientId: chat.client.id })).status, 200);
    assert.equal((await say('second')).status, 200);
    assert.deepEqual((await org.admin.api.get('/api/chats?filter=waiting')).body.entity.items, []);
    const msgs = await org.admin.api.get(`/api/clients/${chat.client.id}/chats/${chat.id}/messages`);
    assert.deepEqual(
      msgs.body.entity.items.map((m: { text: string }) => m.text),
      ['first', 'second'],
    );
  });

  test('merge suggestions: similar names across scripts, spellings and word order; different people apart', async () => {
    // The same person's spellings (the pairs were written apart from the key's rules: common transliterations).
    const same = [
      ['Иван Петров', 'Ivan Petrov'],
      ['Petrov Ivan', 'ivan  PETROV'],
      ['Юлия Смирнова', 'Yulia Smirnova'],
      ['Julia Smirnova', 'Yuliya Smirnova'],
      ['Александр Ковалёв', 'Alexander Kovalev'],
      ['Дмитрий Соколов', 'Dmitry Sokolov'],
      ['Наталья Кузнецова', 'Natalia Kuznetsova'],
      ['Hannah Ellis', 'hanna ellis'],
      ['Фёдор Михайлов', 'Fedor Mikhailov'],
    ];
    const apart = [
      ['Ivan Petrov', 'Ivan Sidorov'],
      ['Anna Kim', 'Oleg Kim'],
      ['Мария Волкова', 'Марина Волкова'],
      ['123456789', '123456789'],
      ['Al', 'al'],
    ];
    const key = async (n: string) =>
      (await s.app.db.query<{ k: string | null }>('select client_name_key($1) as k', [n]))[0].k;
    for (const [a, b] of same) {
      const [ka, kb] = [await key(a), await key(b)];
      assert.ok(ka, `${a} has a key`);
      assert.equal(ka, kb, `${a} ~ ${b}`);
    }
    for (const [a, b] of apart) {
      const [ka, kb] = [await key(a), await key(b)];
      assert.ok(ka === null || ka !== kb, `${a} and ${b} stay apart (${ka} / ${kb})`);
    }
    // Through the API: one group with both spellings; the other client is not in it.
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org);
    const ch = await makeChannel(org, teamId);
    const a = await clientOn(s, org, ch, 'sim-1', 'Иван Петров');
    const b = await clientOn(s, org, ch, 'sim-2', 'Petrov Ivan');
    const c = await clientOn(s, org, ch, 'sim-3', 'Ivan Sidorov');
    const groups = (await org.admin.api.get('/api/clients/merge/suggestions')).body.entity.items as {
      reason: string;
      clients: { id: string }[];
    }[];
    const byName = groups.filter((g) => g.reason === 'name');
    assert.equal(byName.length, 1, JSON.stringify(groups));
    assert.deepEqual(byName[0].clients.map((x) => x.id).sort(), [a.clientId, b.clientId].sort());
    assert.ok(!groups.some((g) => g.clients.some((x) => x.id === c.clientId)));
  });

  test('merge: one transaction moving contacts, chats, messages, comments, tags, fields; sources 404', async () => {
    const org = await createOrganisation(s);
    const api = org.admin.api;
    const teamId = await makeTeam(org);
    const chA = await makeChannel(org, teamId);
    const chB = await makeChannel(org, teamId);
    const target = await clientOn(s, org, chA, 'm-a', 'Kate');
    const source = await clientOn(s, org, chB, 'm-b', 'kate');
    await api.patch(`/api/clients/${target.clientId}`, {
      tags: ['vip'],
      fields: [{ name: 'City', value: 'Riga' }],
    });
    await api.patch(`/api/clients/${source.clientId}`, {
      tags: ['new'],
      fields: [
        { name: 'city', value: 'Oslo' },
        { name: 'Age', value: '30' },
      ],
      contacts: [{ kind: 'phone', value: '+37120000000' }],
    });
    await api.post(`/api/clients/${source.clientId}/comments`, { text: 'from source' });
    const sugg = await api.get('/api/clients/merge/suggestions');
    assert.ok(
      sugg.body.entity.items.some(
        (g: { reason: string; clients: { id: string }[] }) =>
          g.reason === 'name' && g.clients.some((c) => c.id === source.clientId),
      ),
    );
    const body = { targetId: target.clientId, sourceIds: [source.clientId] };
    const preview = await api.post('/api/clients/merge/preview', body);
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.deepEqual(
      [
        preview.body.entity.chats,
        preview.body.entity.contacts,
        preview.body.entity.messages,
        preview.body.entity.comments,
      ],
      [1, 1, 1, 1],
    );
    assert.equal(
      (await api.post('/api/clients/merge', { targetId: target.clientId, sourceIds: [target.clientId] }))
        .status,
      400,
    );
    // An operator who sees neither client cannot merge or preview them.
    const outsider = await org.user({ role: 'OPERATOR', teams: [await makeTeam(org)] });
    assert.equal((await outsider.api.post('/api/clients/merge', body)).status, 404);
    assert.equal((await outsider.api.post('/api/clients/merge/preview', body)).status, 404);
    const merged = await api.post('/api/clients/merge', body);
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    const p = merged.body.entity;
    assert.deepEqual(p.tags, ['new', 'vip']);
    assert.deepEqual(p.fields, [
      { name: 'City', value: 'Riga' },
      { name: 'Age', value: '30' },
    ]);
    assert.deepEqual(p.details, [{ kind: 'phone', value: '+37120000000' }]);
    assert.deepEqual(p.contacts.map((c: { externalId: string }) => c.externalId).sort(), ['m-a', 'm-b']);
    assert.equal(p.comments[0].text, 'from source');
    assert.equal(p.history[0].kind, 'merged');
    assert.equal(p.history[0].actor.name, 'Admin');
    assert.deepEqual(p.history[0].data.sources, [{ id: source.clientId, name: 'kate' }]);
    assert.equal((await api.get(`/api/clients/${source.clientId}`)).status, 404);
    assert.equal((await api.get(`/api/chats/${source.chatId}`)).body.entity.client.id, target.clientId);
    // The source's next message lands on the target.
    const next = await inbound(s, chB, { client: 'm-b', text: 'still me' });
    assert.equal(
      (await api.get(`/api/chats/${next.body.entity.chatId}`)).body.entity.client.id,
      target.clientId,
    );
    assert.equal((await api.post('/api/clients/merge', body)).status, 404);
    const other = await createOrganisation(s);
    const otherClient = await clientOn(s, other, await makeChannel(other, await makeTeam(other)), 'o-1');
    assert.equal(
      (await api.post('/api/clients/merge', { targetId: target.clientId, sourceIds: [otherClient.clientId] }))
        .status,
      404,
    );
  });

  test('merge under concurrent inbound messages to both clients: every message stored once, on the target', async () => {
    const org = await createOrganisation(s);
    const api = org.admin.api;
    const teamId = await makeTeam(org);
    const chA = await makeChannel(org, teamId);
    const chB = await makeChannel(org, teamId);
    const target = await clientOn(s, org, chA, 'c-a', 'Tom');
    const source = await clientOn(s, org, chB, 'c-b', 'Tom B');
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      sends.push(inbound(s, chA, { client: 'c-a', text: `a${i}`, externalMessageId: `ca-${i}` }));
      sends.push(inbound(s, chB, { client: 'c-b', text: `b${i}`, externalMessageId: `cb-${i}` }));
    }
    const merge = api.post('/api/clients/merge', { targetId: target.clientId, sourceIds: [source.clientId] });
    const results = (await Promise.all([...sends, merge])) as {
      status: number;
      body: { entity: { chatId: string } };
    }[];
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    const rows = await s.db.query<{ text: string; client_id: string }>(
      `select m.text, c.client_id from messages m join chats c on c.id = m.chat_id
        where m.organisation_id = $1 and m.direction = 'in'`,
      [org.id],
    );
    const texts = new Set(rows.map((r) => r.text));
    assert.deepEqual(
      ['Hello', ...Array.from({ length: 20 }, (_, i) => [`a${i}`, `b${i}`]).flat()].filter(
        (t) => !texts.has(t),
      ),
      [],
    );
    assert.equal(rows.length, 42);
    assert.equal(texts.size, 41, 'each message once (both clients said Hello)');
    assert.ok(rows.every((r) => r.client_id === target.clientId));
    const left = await s.db.query('select 1 from clients where id = $1', [source.clientId]);
    assert.equal(left.length, 0);
  });
});
