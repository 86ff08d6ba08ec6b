import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createOrganisation, startTestServer, type TestOrg, type TestServer } from '../helpers.ts';
import { chatsOf, messagesOf } from '../replies.ts';
import { makeTeam } from './chats-fixtures.ts';

/** The chat page (`chat_page`, issue 34): a hosted full-page chat at /c/{slug}, on the site widget's protocol. */
describe('chat page', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const create = async (org: TestOrg, extra: Record<string, unknown>) =>
    org.admin.api.post('/api/channels', {
      type: 'chat_page',
      name: `Page ${Math.random().toString(36).slice(2, 8)}`,
      teamId: await makeTeam(org),
      ...extra,
    });
  const html = async (path: string) => {
    const res = await fetch(`${s.url}${path}`);
    return {
      status: res.status,
      text: await res.text(),
      csp: res.headers.get('content-security-policy') ?? '',
    };
  };

  test('created with its address; a taken or malformed address is refused; one is made when left out', async () => {
    const org = await createOrganisation(s);
    const slug = `acme-${Date.now().toString(36)}`;
    const made = await create(org, { slug: slug.toUpperCase(), title: 'Acme <help>', welcomeMessage: 'Hi!' });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(made.body.entity.settings.slug, slug, 'kept in lower case');
    assert.equal(made.body.entity.settings.title, 'Acme <help>');

    const other = await createOrganisation(s);
    const taken = await create(other, { slug });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.code, 'channelAlreadyExistsException');
    const malformed = await create(org, { slug: 'a b' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.fields.slug, 'Value specified incorrectly');
    const generated = await create(org, {});
    assert.equal(generated.status, 200);
    assert.match(generated.body.entity.settings.slug, /^[0-9a-f]{12}$/);

    // Renamed to a free address: the old one is gone, the new one serves the page.
    const id = made.body.entity.id as string;
    const renamed = await org.admin.api.patch(`/api/channels/${id}`, { slug: `${slug}-2` });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal((await html(`/c/${slug}`)).status, 404);
    assert.equal((await html(`/c/${slug}-2`)).status, 200);
    // Another channel may not take it; deleting the channel frees it.
    assert.equal((await create(other, { slug: `${slug}-2` })).status, 409);
    assert.equal((await org.admin.api.delete(`/api/channels/${id}`)).status, 200);
    assert.equal((await html(`/c/${slug}-2`)).status, 404);
    assert.equal((await create(other, { slug: `${slug}-2` })).status, 200);
  });

  test('the page loads the widget into the whole window; unknown addresses are a 404 page; texts are escaped', async () => {
    const org = await createOrganisation(s);
    const slug = `help-${Date.now().toString(36)}`;
    const made = await create(org, { slug, title: '<script>alert(1)</script> Help' });
    const id = made.body.entity.id as string;
    const page = await html(`/c/${slug}`);
    assert.equal(page.status, 200);
    assert.ok(
      page.text.includes(`<script src="/widget.js" data-channel="${id}" data-inline="#chat" async></script>`),
    );
    assert.ok(page.text.includes('&lt;script&gt;alert(1)&lt;/script&gt; Help'));
    assert.ok(!page.text.includes('<script>alert(1)'), 'the title cannot inject a script');
    assert.match(page.csp, /script-src 'self'/);
    assert.match(page.text, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    const missing = await html('/c/nope-nothing-here');
    assert.equal(missing.status, 404);
    assert.match(missing.text, /This chat page does not exist/);
    for (const bad of ['/c/..%2F..%2Fetc', '/c/A%20B', `/c/${'x'.repeat(300)}`])
      assert.equal((await html(bad)).status, 404, bad);
  });

  test('a visitor on the page writes through the widget protocol and reaches the organisation’s chats', async () => {
    const org = await createOrganisation(s);
    const made = await create(org, { title: 'Shop chat', welcomeMessage: 'Ask us anything' });
    const id = made.body.entity.id as string;
    const config = await s.api.get(`/api/widget/${id}/config`);
    assert.equal(config.status, 200);
    assert.equal(config.body.entity.title, 'Shop chat');
    const v = await s.api.post(`/api/widget/${id}/visitors`);
    assert.equal(v.status, 200);
    const sent = await s.api.call(
      'POST',
      `/api/widget/${id}/messages?token=${encodeURIComponent(v.body.entity.token)}`,
      JSON.stringify({ clientMessageId: `cm-${Date.now()}-page`, text: 'Is the blue one in stock?' }),
      { 'content-type': 'text/plain' },
    );
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const chats = await chatsOf(org);
    const chat = chats.find((c: { channel: { id: string } }) => c.channel.id === id);
    assert.ok(chat, 'the visitor’s chat is in the organisation’s queue');
    assert.deepEqual(
      (await messagesOf(org, chat.id)).map((m: { text: string }) => m.text),
      ['Is the blue one in stock?'],
    );
  });
});
