import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { makeChannel, makeTeam, type TestChannel } from './chats-fixtures.ts';

/** Text PostgreSQL cannot store (NUL, lone surrogates): forms refuse it with the field's message, providers' is cleaned. */
describe('bad input', () => {
  let s: TestServer;
  let org: TestOrg;
  let ch: TestChannel;
  before(async () => {
    s = await startTestServer();
    org = await createOrganisation(s);
    ch = await makeChannel(org, await makeTeam(org));
  });
  after(() => s.close());

  const push = (body: unknown) => s.api.as(ch.inboundKey).post(`/api/channels/${ch.id}/inbound`, body);

  test('an inbound message with NUL and lone surrogates is stored cleaned and answered 200; a retry does not double it', async () => {
    const body = {
      externalMessageId: 'msg\u0000-1',
      client: { externalId: 'cli\u0000ent-\uD800', name: 'Ann\u0000 \uDC00Client' },
      text: 'Hel\u0000lo \uD800world \uD83D\uDE00',
      attachments: [
        { url: 'https://example.com/f\u0000.png', name: 'f\uD800.png', contentType: 'image/png' },
      ],
    };
    const first = await push(body);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.entity.duplicate, false);
    const retry = await push(body);
    assert.equal(retry.status, 200);
    assert.equal(retry.body.entity.duplicate, true);
    assert.equal(retry.body.entity.messageId, first.body.entity.messageId);

    const { chatId } = first.body.entity;
    const messages = (await org.admin.api.get(`/api/chats/${chatId}/messages`)).body.entity.items;
    assert.equal(messages.length, 1);
    // NUL dropped, a lone surrogate made U+FFFD, a real pair (the emoji) kept.
    assert.equal(messages[0].text, 'Hello \uFFFDworld \uD83D\uDE00');
    assert.equal(messages[0].externalMessageId, 'msg-1');
    assert.deepEqual(messages[0].attachments, [
      { url: 'https://example.com/f.png', name: 'f\uFFFD.png', contentType: 'image/png' },
    ]);
    const chat = (await org.admin.api.get(`/api/chats/${chatId}`)).body.entity;
    assert.equal(chat.client.name, 'Ann \uFFFDClient');
    assert.equal(chat.client.externalId, 'client-\uFFFD');
  });

  test('inbound text that is nothing but NUL is empty, so required; a javascript: attachment URL is a field error', async () => {
    const empty = await push({
      externalMessageId: 'nul-only',
      client: { externalId: 'c2' },
      text: '\u0000\u0000',
    });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body.error.fields, { text: 'Please fill in all required fields' });
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'file:///etc/passwd',
      'ftp://x.test/a',
    ]) {
      const res = await push({
        externalMessageId: `bad-url-${url}`,
        client: { externalId: 'c3' },
        attachments: [{ url, name: 'x' }],
      });
      assert.equal(res.status, 400, url);
      assert.deepEqual(res.body.error.fields, { 'attachments.0.url': 'Value specified incorrectly' }, url);
    }
  });

  test('an operator message: NUL in the text or a javascript: attachment URL is a field error', async () => {
    const res = await push({ externalMessageId: 'op-1', client: { externalId: 'c4' }, text: 'Hi' });
    const chatId = res.body.entity.chatId;
    assert.equal((await org.admin.api.post(`/api/chats/${chatId}/take`)).status, 200);
    const nul = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'a\u0000b' });
    assert.equal(nul.status, 400);
    assert.deepEqual(nul.body.error.fields, { text: 'Value specified incorrectly' });
    const lone = await org.admin.api.post(`/api/chats/${chatId}/messages`, { text: 'a\uD800' });
    assert.deepEqual(lone.body.error.fields, { text: 'Value specified incorrectly' });
    const js = await org.admin.api.post(`/api/chats/${chatId}/messages`, {
      text: 'see',
      attachments: [{ url: 'javascript:alert(1)' }],
    });
    assert.equal(js.status, 400);
    assert.deepEqual(js.body.error.fields, { 'attachments.0.url': 'Value specified incorrectly' });
    const ok = await org.admin.api.post(`/api/chats/${chatId}/messages`, {
      text: 'see',
      attachments: [{ url: 'https://example.com/a.pdf', name: 'a.pdf' }],
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  test('a user or team with NUL or a lone surrogate in a name gets the field’s own message, with the other errors', async () => {
    const user = await org.admin.api.post('/api/users', {
      name: 'Ann\u0000',
      email: 'ann@bad-input.test',
      roleId: org.roles.OPERATOR,
      password: 'Passw0rd!',
      repeatPassword: 'Passw0rd!',
    });
    assert.equal(user.status, 400);
    assert.equal(user.body.code, 'validationException');
    assert.deepEqual(user.body.error.fields, { name: 'Name specified incorrectly' });

    const team = await org.admin.api.post('/api/teams', { name: 'Sales\u0000', description: 'x\uD800' });
    assert.equal(team.status, 400);
    assert.deepEqual(team.body.error.fields, {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
    });
    // Shown together with the errors the schema finds itself.
    const both = await org.admin.api.post('/api/teams', {
      name: '\u0000',
      description: 'ok',
      dialogLimit: 0,
    });
    assert.deepEqual(both.body.error.fields, {
      name: 'Name specified incorrectly',
      dialogLimit: 'Quantity specified incorrectly',
    });
    const rename = await org.admin.api.patch(`/api/users/${org.admin.id}`, { name: '\uDC00' });
    assert.deepEqual(rename.body.error.fields, { name: 'Name specified incorrectly' });
    const own = await org.admin.api.patch('/api/auth/acc/update', { name: 'Me\u0000' });
    assert.deepEqual(own.body.error.fields, { name: 'Name specified incorrectly' });
    const password = await org.admin.api.post('/api/auth/acc/passwordChange', {
      oldPassword: 'whatever',
      password: 'Passw0rd!\u0000',
      repeatPassword: 'Passw0rd!\u0000',
    });
    // The repeat field holds the same bad value, and says what it says to any wrong value.
    assert.deepEqual(password.body.error.fields, {
      password: 'Password specified incorrectly',
      repeatPassword: 'Passwords do not match',
    });
  });

  test('a search query with NUL is 400 naming the parameter; NUL in a path is not found', async () => {
    for (const [path, field] of [
      ['/api/users?search=a%00b', 'search'],
      ['/api/teams?search=%00', 'search'],
      ['/api/acc/user/short?name=%00', 'name'],
    ]) {
      const res = await org.admin.api.get(path);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.code, 'validationException');
      assert.deepEqual(res.body.error.fields, { [field]: 'Incorrect value entered' }, path);
    }
    const recovery = await s.api.get('/api/auth/recovery/abc%00def');
    assert.equal(recovery.status, 404);
    assert.equal(recovery.body.code, 'notFoundException');
    // A path the router cannot decode, or a parameter over its length: not found too, in the envelope.
    for (const path of ['/api/users/%ED%A0%80', '/api/users/%FF', `/api/users/${'a'.repeat(500)}`]) {
      const res = await org.admin.api.get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.code, 'notFoundException', path);
    }
  });

  test('huge, mistyped and deeply nested bodies are 4xx with the envelope', async () => {
    const huge = await org.admin.api.post('/api/teams', { name: 'x'.repeat(900_000), description: 'd' });
    assert.equal(huge.status, 400);
    assert.deepEqual(huge.body.error.fields, { name: 'Name specified incorrectly' });
    const over = await org.admin.api.post('/api/teams', { name: 'x'.repeat(2_000_000), description: 'd' });
    assert.equal(over.status, 413);
    assert.equal(over.body.code, 'payloadTooLargeException');
    const typed = await org.admin.api.post('/api/teams', { name: ['a'], description: { a: 1 } });
    assert.deepEqual(typed.body.error.fields, {
      name: 'Name specified incorrectly',
      description: 'Description specified incorrectly',
    });
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const malformed = await org.admin.api.call('POST', '/api/teams', '{"name":', {
      'content-type': 'application/json',
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual(malformed.body.error.fields, { _: 'Incorrect value entered' });
    const nested = await org.admin.api.call('POST', '/api/teams', deep, {
      'content-type': 'application/json',
    });
    assert.equal(nested.status, 400);
    assert.equal(nested.body.code, 'validationException');
    const deepName = `{"name":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)},"description":"d"}`;
    const inField = await org.admin.api.call('POST', '/api/teams', deepName, {
      'content-type': 'application/json',
    });
    assert.deepEqual(inField.body.error.fields, { name: 'Name specified incorrectly' });
  });
});
