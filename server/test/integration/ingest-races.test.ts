import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PLAN_OPTIONS } from '@smartconnect/contracts';
import pg from 'pg';
import type { InboundMessage } from '../../src/channels/types.ts';
import type { AppContext } from '../../src/context.ts';
import { inboundChannel } from '../../src/modules/channels/service.ts';
import { ingestInbound } from '../../src/modules/conversation/ingest.ts';
import { ProcessState } from '../../src/process-state.ts';
import { createOrganisation, startTestServer, type TestServer } from '../helpers.ts';
import { chatOf, inbound, makeChannel, makeTeam, recordEvents, type TestChannel } from './chats-fixtures.ts';

const MIN = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Ingest against writers it does not see: another instance storing the same provider message, an operator
 * closing the session while a message is opening it. Each is made to happen at the worst moment.
 */
describe('ingest races with other writers', {
  skip: process.env.DATABASE_URL ? false : 'needs PostgreSQL: PGlite runs one transaction at a time',
}, () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.close());

  const setup = async () => {
    const org = await createOrganisation(s, { options: PLAN_OPTIONS.filter((o) => o !== 'OPTION_CATEGORY') });
    const teamId = await makeTeam(org, { method: 'manual', autoCloseMinutes: 60 });
    const ch = await makeChannel(org, teamId, { halfExpiredMinutes: 30, expiredMinutes: 50 });
    return { org, ch };
  };

  /** A connection of its own, as another instance would have. */
  const connect = async () => {
    const c = new pg.Client({ connectionString: s.databaseUrl });
    await c.connect();
    return c;
  };

  test('a copy of a message stored meanwhile by another writer changes nothing in the ongoing chat', async () => {
    const { org, ch } = await setup();
    const first = await inbound(s, ch, { client: 'dup', text: 'first' });
    const chatId: string = first.body.entity.chatId;
    s.clock.advance(5 * MIN);
    const before = await chatOf(org.admin, chatId);
    const timers = async () =>
      s.db.query<{ kind: string; due_at: Date }>(
        'select kind, due_at from timers where subject_id = $1 order by kind',
        [chatId],
      );
    const timersBefore = await timers();
    assert.deepEqual(
      timersBefore.map((t) => t.kind),
      ['auto_close', 'overdue_expired', 'overdue_half'],
    );

    // Another instance is storing provider message 'ext-dup' right now: not committed yet.
    const other = await connect();
    try {
      await other.query('begin');
      await other.query(
        `insert into messages (organisation_id, chat_id, channel_id, direction, text, external_message_id)
         values ($1, $2, $3, 'in', 'first copy', 'ext-dup')`,
        [org.id, chatId, ch.id],
      );
      const rec = recordEvents(s);
      const copy = inbound(s, ch, { client: 'dup', externalMessageId: 'ext-dup', text: 'second copy' });
      // The batch statement reaches the message insert and waits for the other writer's outcome.
      await sleep(400);
      await other.query('commit');
      const res = await copy;
      rec.stop();
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.entity.duplicate, true);
      assert.equal(res.body.entity.chatId, chatId);
      const after = await chatOf(org.admin, chatId);
      assert.deepEqual(after.lastMessage, before.lastMessage);
      assert.equal(after.lastClientMessageAt, before.lastClientMessageAt);
      assert.equal(after.updatedAt, before.updatedAt);
      assert.deepEqual(await timers(), timersBefore);
      assert.deepEqual(
        rec.events.filter((e) => e.type === 'message.created'),
        [],
      );
    } finally {
      await other.end();
    }
  });

  test('a session closed while a message of its client is opening it: the message opens the next one', async () => {
    const { org, ch } = await setup();
    // First and second statements of an ingest can be paused: stage 1 holds a new session uncommitted
    // (its history row), stage 2 pauses between the chat insert and the lookup of the open chat.
    await s.db.exec(`
      create table test_race (stage int not null);
      insert into test_race values (0);
      create function test_race_history() returns trigger as $$
      begin
        if (select stage from test_race) = 1 and new.kind in ('created', 'reopen') then perform pg_sleep(0.6); end if;
        return null;
      end $$ language plpgsql;
      create trigger test_race_history after insert on chat_history
        for each row execute function test_race_history();
      create function test_race_chats() returns trigger as $$
      begin
        if (select stage from test_race) = 2 then perform pg_sleep(1.5); end if;
        return null;
      end $$ language plpgsql;
      create trigger test_race_chats after insert on chats
        for each statement execute function test_race_chats();`);
    const stage = (n: number) => s.db.query('update test_race set stage = $1', [n]);
    try {
      const old = (await inbound(s, ch, { client: 'race', text: 'old' })).body.entity.chatId;
      assert.equal((await org.admin.api.post(`/api/chats/${old}/close`)).status, 200);

      // A: the client's next message opens a new session and is caught before its commit.
      await stage(1);
      const a = inbound(s, ch, { client: 'race', externalMessageId: 'race-a', text: 'a' });
      await sleep(200);
      // B: another message of the client on another instance: it finds no open chat (A has not committed),
      // so it opens one too, meets A's chat at the insert and waits for A.
      await stage(2);
      const b = direct(s, ch, { client: 'race', id: 'race-b', text: 'b' });
      const opened = await a;
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      const chatA: string = opened.body.entity.chatId;
      // A committed; while B is between its insert and its lookup, an operator closes A's session.
      assert.equal((await org.admin.api.post(`/api/chats/${chatA}/close`)).status, 200);
      await stage(0);
      const stored = await b;
      assert.notEqual(stored.chatId, chatA);
      assert.equal(stored.duplicate, false);
      const next = await chatOf(org.admin, stored.chatId);
      assert.equal(next.status, 'waiting');
      assert.equal(next.lastMessage.text, 'b');
    } finally {
      await stage(0);
    }
  });
});

/**
 * Hands a message to ingest as another instance would: its own batcher (a context of its own) on the same
 * database and bus.
 */
async function direct(s: TestServer, ch: TestChannel, m: { client: string; id: string; text: string }) {
  const { row } = await inboundChannel(s.app, ch.id, {
    headers: { authorization: `Bearer ${ch.inboundKey}` },
    query: {},
    rawBody: Buffer.alloc(0),
    body: {},
  });
  const msg: InboundMessage = {
    externalMessageId: m.id,
    client: { externalId: m.client, name: m.client },
    text: m.text,
    attachments: [],
  };
  const other: AppContext = { ...s.app, state: new ProcessState() };
  return ingestInbound(other, row, msg);
}
