import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InboundMessage } from '../../src/channels/types.ts';
import { inboundChannel } from '../../src/modules/channels/service.ts';
import { ingestInbound } from '../../src/modules/conversation/ingest.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { inbound, makeChannel, makeTeam, recordEvents, type TestChannel } from './chats-fixtures.ts';

/** Group commit of inbound messages (modules/conversation/ingest-batcher.ts) against the real database. */
describe('ingest group commit', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    // A message with this text is refused when its transaction COMMITS (a deferred constraint trigger), and
    // one with 'refused at insert' by its statement (ingest cleans what PostgreSQL itself would refuse, like NUL).
    await s.db.exec(`
      create function refuse_at_commit() returns trigger as $$
      begin
        if new.text = 'refused at commit' then raise exception 'commit refused'; end if;
        return null;
      end $$ language plpgsql;
      create constraint trigger refuse_at_commit after insert on messages
        deferrable initially deferred for each row execute function refuse_at_commit();
      create function refuse_at_insert() returns trigger as $$
      begin
        if new.text = 'refused at insert' then raise exception 'insert refused'; end if;
        return new;
      end $$ language plpgsql;
      create trigger refuse_at_insert before insert on messages
        for each row execute function refuse_at_insert();`);
  });
  after(() => s.close());

  const setup = async () => {
    const org = await createOrganisation(s);
    const teamId = await makeTeam(org, { method: 'manual' });
    const ch = await makeChannel(org, teamId);
    return { org, ch };
  };
  /** Messages handed to ingest in one turn of the event loop: they arrive in this order, in one batch. */
  const direct = async (ch: TestChannel, msgs: { client: string; id: string; text?: string }[]) => {
    const { row } = await inboundChannel(s.app, ch.id, {
      headers: { authorization: `Bearer ${ch.inboundKey}` },
      query: {},
      rawBody: Buffer.alloc(0),
      body: {},
    });
    return Promise.allSettled(
      msgs.map((m) => {
        const msg: InboundMessage = {
          externalMessageId: m.id,
          client: { externalId: m.client, name: m.client },
          text: m.text ?? m.id,
          attachments: [],
        };
        return ingestInbound(s.app, row, msg);
      }),
    );
  };
  const texts = async (chatId: string, admin: Awaited<ReturnType<typeof setup>>['org']['admin']) => {
    const res = await admin.api.get(`/api/chats/${chatId}/messages?limit=200`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.entity.items as { text: string }[]).map((m) => m.text);
  };

  test('20 parallel retries of one message in an ongoing chat: one row, every retry 200, one event', async () => {
    const { org, ch } = await setup();
    const first = await inbound(s, ch, { client: 'c1', externalMessageId: 'open' });
    assert.equal(first.status, 200);
    const rec = recordEvents(s);
    const res = await Promise.all(
      Array.from({ length: 20 }, () =>
        inbound(s, ch, { client: 'c1', externalMessageId: 'x-1', text: 'again' }),
      ),
    );
    rec.stop();
    assert.ok(res.every((r) => r.status === 200));
    const ids = new Set(res.map((r) => r.body.entity.messageId));
    assert.equal(ids.size, 1);
    assert.equal(res.filter((r) => r.body.entity.duplicate === false).length, 1);
    assert.deepEqual(await texts(first.body.entity.chatId, org.admin), ['Hello', 'again']);
    assert.equal(rec.events.filter((e) => e.type === 'message.created').length, 1);
  });

  test('messages of one chat arriving together are stored and published in arrival order', async () => {
    const { org, ch } = await setup();
    const rec = recordEvents(s);
    // a new client: the first message opens the chat on the transactional path, the others wait behind it
    const msgs = Array.from({ length: 25 }, (_, n) => ({
      client: n % 5 === 4 ? 'other' : 'ann',
      id: `o-${n}`,
    }));
    const out = await direct(ch, msgs);
    assert.ok(out.every((o) => o.status === 'fulfilled'));
    const chatOf = (o: (typeof out)[number]) =>
      o.status === 'fulfilled' ? o.value.chatId : assert.fail('ingest failed');
    const ann = msgs.filter((m) => m.client === 'ann').map((m) => m.id);
    assert.deepEqual(await texts(chatOf(out[0]), org.admin), ann);
    // and once more into the open chat, all in one batch
    const more = Array.from({ length: 20 }, (_, n) => ({ client: 'ann', id: `p-${n}` }));
    const out2 = await direct(ch, more);
    assert.ok(out2.every((o) => o.status === 'fulfilled' && o.value.chatId === chatOf(out[0])));
    assert.deepEqual(await texts(chatOf(out[0]), org.admin), [...ann, ...more.map((m) => m.id)]);
    rec.stop();
    const published = rec.events
      .filter((e) => e.type === 'message.created')
      .map((e) => e.payload as { text: string; chatId: string })
      .filter((p) => p.chatId === chatOf(out[0]))
      .map((p) => p.text);
    assert.deepEqual(published, [...ann, ...more.map((m) => m.id)]);
  });

  test('a bad message fails alone; its batch-mates are stored', async () => {
    const { org, ch } = await setup();
    await inbound(s, ch, { client: 'b1', externalMessageId: 'open-b' });
    const msgs = Array.from({ length: 10 }, (_, n) => ({
      client: 'b1',
      id: `b-${n}`,
      text: n === 4 ? 'refused at insert' : `b-${n}`,
    }));
    const out = await direct(ch, msgs);
    assert.deepEqual(
      out.map((o) => o.status),
      msgs.map((_, n) => (n === 4 ? 'rejected' : 'fulfilled')),
    );
    const chatId = out[0].status === 'fulfilled' ? out[0].value.chatId : '';
    assert.deepEqual(await texts(chatId, org.admin), [
      'Hello',
      ...msgs.filter((_, n) => n !== 4).map((m) => m.text),
    ]);
  });

  test('a request is answered only after its commit: a commit that fails is an error, never 200', async () => {
    const { org, ch } = await setup();
    const open = await inbound(s, ch, { client: 'r1', externalMessageId: 'open-r' });
    assert.equal(open.status, 200);
    const rec = recordEvents(s);
    const res = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        inbound(s, ch, {
          client: 'r1',
          externalMessageId: `r-${n}`,
          text: n === 3 ? 'refused at commit' : `r-${n}`,
        }),
      ),
    );
    rec.stop();
    assert.deepEqual(
      res.map((r) => r.status),
      res.map((_, n) => (n === 3 ? 500 : 200)),
    );
    const stored = await texts(open.body.entity.chatId, org.admin);
    assert.equal(stored.includes('refused at commit'), false);
    assert.equal(stored.length, 8);
    const events = rec.events.filter((e) => e.type === 'message.created');
    assert.equal(events.length, 7);
    assert.ok(events.every((e) => (e.payload as { text: string }).text !== 'refused at commit'));
    // direct calls in one batch: same answer
    const out = await direct(ch, [
      { client: 'r1', id: 'd-1' },
      { client: 'r1', id: 'd-2', text: 'refused at commit' },
      { client: 'r1', id: 'd-3' },
    ]);
    assert.deepEqual(
      out.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });
});
