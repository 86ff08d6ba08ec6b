import { sanitizeStrings } from '@smartconnect/contracts';
import type { InboundMessage } from '../../channels/types.ts';
import { type AppContext, stateSlot } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { runJobsNow } from '../../jobs/pipeline.ts';
import { metricsOf } from '../../lib/metrics.ts';
import type { StoredEvent } from '../../realtime/bus.ts';
import { commitWithEvents, publishCommitted } from '../../realtime/emit.ts';
import { logOnlyReaders, writeLogOnly } from '../../realtime/log-only.ts';
import { clientEventData } from '../clients/events.ts';
import { type BatchOutcome, type BatchStore, IngestBatcher, MicroStamps } from './ingest-batcher.ts';
import { chatEvents } from './lifecycle.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

export type IngestChannel = {
  id: string;
  organisation_id: string;
  team_id: string;
  /** Teams that see the channel's Waiting chats besides its own (their message.created events too). */
  visible_team_ids: string[];
  half_expired_minutes: number | null;
  expired_minutes: number | null;
  org_options: string[];
  /** Every inbound message of the organisation goes through the pipeline, not only those opening a chat. */
  org_inbound_automation: boolean;
};

export type IngestResult = { duplicate: boolean; messageId: string; chatId: string };
/**
 * Inside ingest: whether the message's pipeline job was enqueued with it, and whether the message opened its chat
 * (its job routes the chat).
 */
type Stored = IngestResult & { queued?: boolean; opened?: boolean };

/** One inbound message as the batcher carries it: stamped when its batch is formed. */
type Item = {
  channel: IngestChannel;
  msg: InboundMessage;
  now: Date;
  /** `now` with microseconds: the message's created_at, strictly increasing in arrival order. */
  at: string;
};

type Batcher = IngestBatcher<Item, Stored, StoredEvent>;
/**
 * Batch statements in flight at once on PostgreSQL (PGlite is one connection: one). Two let one batch's
 * commit (WAL flush) overlap the next one's execution; more split the load into smaller batches for no gain
 * on 2 cores (bench/ingest.ts: 1218, 1690, 1130 msg/s with 1, 2, 4).
 */
const INGEST_LANES = 2;
const BATCHER = stateSlot<Batcher>(
  'chats.ingest-batcher',
  (app) =>
    new IngestBatcher(ingestStore(app), {
      maxBatch: 100,
      lanes: app.db.kind === 'postgres' ? INGEST_LANES : 1,
    }),
);

const batcherOf = (app: AppContext): Batcher => app.state.of(app, BATCHER);

/**
 * One inbound customer message, answered once it is committed: dedupe by (channel, provider message id),
 * upsert the client and contact (their name follows the provider's), find the open chat or open a new session,
 * append the message, write history, arm its timers, emit events and enqueue the message's pipeline job when it
 * needs a decision (it opens a chat, or the organisation's automation sees every message). Routing is not done
 * here: the job runs right after the commit (jobs/pipeline.ts), and again from the table if this instance dies.
 * A retry of the same provider message changes nothing. Every string of the message is made storable first
 * (sanitizeStrings).
 *
 * Messages are group-committed (ingest-batcher.ts): those arriving together, into open chats or opening new ones,
 * are written by ONE statement (queries.ingestBatch) in one transaction with their events, and each is answered
 * after that shared commit. There is no second path: a message that lost a race in its batch runs the same
 * statement again on its own.
 */
export async function ingestInbound(
  app: AppContext,
  channel: IngestChannel,
  message: InboundMessage,
): Promise<IngestResult> {
  // Whatever the adapter, provider text is stored, never refused: NUL dropped, lone surrogates made U+FFFD.
  const msg = sanitizeStrings(message);
  const batcher = batcherOf(app);
  const stamps = stampsOf(app);
  const { queued, opened, ...result } = await batcher.submit(
    {
      channelId: channel.id,
      externalClientId: msg.client.externalId,
      externalMessageId: msg.externalMessageId,
    },
    () => {
      const now = app.clock.now();
      return { channel, msg, now, at: stamps.next(now) };
    },
  );
  metricsOf(app).ingested.inc({ result: result.duplicate ? 'duplicate' : 'stored' });
  // The pipeline runs the message's job at once, here. The answer waits a while (PIPELINE_ANSWER_WAIT_MS) only
  // for a chat's first message, so that a 200 normally means the chat reached its operator; a message into an open
  // chat (automation sees every message) is answered on its commit: a provider's webhook is never held by a bot or
  // a rule. The job is durable either way: a slow or failing stage never loses it.
  if (queued) {
    const run = runJobsNow(app, [result.messageId]);
    if (opened) await waitAtMost(run, PIPELINE_ANSWER_WAIT_MS);
  }
  return result;
}

/** How long an inbound answer waits for the message's pipeline run (it goes on after). */
const PIPELINE_ANSWER_WAIT_MS = 2_000;

function waitAtMost(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const STAMPS = stateSlot('chats.ingest-stamps', () => new MicroStamps());
const stampsOf = (app: AppContext): MicroStamps => app.state.of(app, STAMPS);

/** The batcher's view of the database: the batch statement, the lone retry, the bus. */
function ingestStore(app: AppContext): BatchStore<Item, Stored, StoredEvent> {
  return {
    append: (items) => appendBatch(app, items),
    alone: (item) => appendAlone(app, item),
    publish: (events) => publishCommitted(app, events),
    duplicateOf: (result) => ({ ...result, duplicate: true, queued: false, opened: false }),
  };
}

/**
 * Lost races a new statement resolves: a lock cycle, and a client merged away (clients/merge.ts deleted the client
 * the statement read; the next one finds the contact on the kept client).
 */
const LOCK_CYCLE = new Set(['40P01', '40001', '23503']);

/**
 * One message in a statement of its own: after its batch failed, or when it lost a race there (a concurrent
 * writer created its contact or chat, or closed its chat). Each statement sees what committed before it, so the
 * next try finds that writer's rows; PostgreSQL's rare lock-cycle victim simply runs again.
 */
async function appendAlone(app: AppContext, item: Item): Promise<Stored> {
  let current = item;
  for (let attempt = 1; ; attempt++) {
    try {
      const [outcome] = await appendBatch(app, [current]);
      if (outcome.kind === 'appended') {
        await publishCommitted(app, outcome.events);
        return outcome.result;
      }
      if (outcome.kind === 'duplicate') return outcome.result;
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (LOCK_CYCLE.has(code) && attempt < 5) continue;
      // A message the database cannot take as it is (a statement that ran out of time, a value it refuses) would
      // fail the same way on every retry of the provider: it is stored once as a notice instead.
      if (current === item && POISON.test(code)) {
        // The error alone: its statement's parameters hold the message itself.
        const { message } = err as Error;
        app.log.warn(
          { code, error: message, channel: item.channel.id },
          'inbound message stored as a notice',
        );
        current = asNotice(item, code);
        continue;
      }
      throw err;
    }
    if (attempt >= 5) throw new Error('ingest: the message kept losing races to concurrent writers');
  }
}

/**
 * SQLSTATEs of a message that fails by its own content: a statement cancelled by its timeout (57014), a data
 * exception (22xxx), a program limit (54xxx). Others (a lost connection, a full disk) are the server's trouble: the
 * provider is refused and retries.
 */
const POISON = /^(57014|22...|54...)$/;

/** The part of a poison message's text kept in its notice. */
const NOTICE_TEXT_MAX = 2_000;

/** What is left of a message the database refused: its ids, files and the start of its text, with the reason. */
function asNotice(item: Item, code: string): Item {
  const { msg } = item;
  const reason = code === '57014' ? 'it took too long to store' : `the database refused it (${code})`;
  const start = msg.text.length > NOTICE_TEXT_MAX ? `${msg.text.slice(0, NOTICE_TEXT_MAX - 1)}…` : msg.text;
  return {
    ...item,
    msg: {
      ...msg,
      client: { externalId: msg.client.externalId, name: '' },
      text: [`[This message could not be stored as received: ${reason}]`, start].filter(Boolean).join('\n'),
      payload: undefined,
    },
  };
}

/** The inbound message as stored by the statement, for its message.created event (the presenter's one shape). */
const storedInbound = (item: Item, id: string, chatId: string): Q.MessageRow => ({
  id,
  chat_id: chatId,
  direction: 'in',
  kind: 'normal',
  internal: false,
  text: item.msg.text,
  attachments: item.msg.attachments,
  buttons: null,
  status: null,
  status_reason: null,
  author_id: null,
  author_name: null,
  bot_id: null,
  bot_name: null,
  external_message_id: item.msg.externalMessageId,
  edited_at: null,
  created_at: item.now,
});

/**
 * The clients the batch's statement made (client.created) or renamed (client.updated) whose organisation reads those
 * events (realtime/log-only.ts), as their events present them: nothing is read when nobody does.
 */
async function madeOrRenamed(q: Queryable, items: Item[], rows: Q.BatchAppendRow[]) {
  const pick = (flag: 'client_created' | 'client_renamed') =>
    rows.flatMap((r, i) =>
      r.client_id && r[flag] ? [{ clientId: r.client_id, orgId: items[i].channel.organisation_id }] : [],
    );
  const made = pick('client_created');
  const renamed = pick('client_renamed');
  if (!made.length && !renamed.length) return new Map();
  const wanted = async (list: typeof made, type: 'client.created' | 'client.updated') => {
    const readers = await logOnlyReaders(
      q,
      type,
      list.map((c) => c.orgId),
    );
    return list.filter((c) => readers.has(c.orgId)).map((c) => c.clientId);
  };
  return clientEventData(q, [
    ...(await wanted(made, 'client.created')),
    ...(await wanted(renamed, 'client.updated')),
  ]);
}

/**
 * A batch in ONE transaction: the ingest statement (queries.ingestBatch), the chats it opened read back, and the
 * events, built here with the conversation module's own presenters and audiences (chat.created and counters.changed
 * for a new chat, then message.created per message; before them client.created for a client the statement made, or
 * client.updated for one it renamed: the clients module's, for webhooks only). Answers what each message became,
 * with its events.
 */
async function appendBatch(app: AppContext, items: Item[]): Promise<BatchOutcome<Stored, StoredEvent>[]> {
  const { result: rows, emitted } = await commitWithEvents(
    app,
    async (q, emit) => {
      const rows = await Q.ingestBatch(
        q,
        items.map(({ channel, msg, now, at }) => {
          const expiring = channel.org_options.includes('OPTION_EXPIRING');
          return {
            orgId: channel.organisation_id,
            channelId: channel.id,
            teamId: channel.team_id,
            externalClientId: msg.client.externalId,
            clientName: msg.client.name,
            username: msg.client.username ?? '',
            now,
            at,
            text: msg.text,
            attachments: msg.attachments,
            externalMessageId: msg.externalMessageId,
            halfExpiredMinutes: expiring ? channel.half_expired_minutes : null,
            expiredMinutes: expiring ? channel.expired_minutes : null,
            pipeline: channel.org_inbound_automation,
            payload: msg.payload ?? null,
          };
        }),
      );
      if (rows.length !== items.length)
        throw new Error(`ingest batch: ${rows.length} rows for ${items.length} messages`);
      // A marketplace message names what the conversation is about: kept on its chat before the chat is announced.
      const topics = rows.flatMap((r, i) => {
        const topic = items[i].msg.topic;
        return topic && r.chat_id && r.message_id ? [{ chatId: r.chat_id, topic }] : [];
      });
      if (topics.length) await Q.setChatTopics(q, topics);
      const opened = [
        ...new Set(rows.filter((r) => r.chat_created && r.chat_id).map((r) => r.chat_id as string)),
      ];
      const chats = new Map((opened.length ? await Q.findChats(q, opened) : []).map((c) => [c.id, c]));
      const clients = await madeOrRenamed(q, items, rows);
      for (const [i, row] of rows.entries()) {
        const client = row.client_id ? clients.get(row.client_id) : undefined;
        if (client && row.client_id) {
          // Its first message announces it, once.
          clients.delete(row.client_id);
          const type = row.client_created ? 'client.created' : 'client.updated';
          await writeLogOnly(emit, client.organisationId, type, client.data);
        }
        // A blacklisted client's message is stored on their profile only: no operator hears of it.
        if (row.blocked || !row.message_id || !row.chat_id || !row.chat_status || !row.team_id) continue;
        const orgId = items[i].channel.organisation_id;
        const chat = chats.get(row.chat_id);
        if (chat) {
          // Its first message announces the chat, once.
          chats.delete(row.chat_id);
          for (const e of chatEvents(chat, 'chat.created')) await emit(orgId, e.type, e.payload, e.audience);
        }
        const scope = {
          status: row.chat_status,
          operator_id: row.operator_id,
          team_id: row.team_id,
          visible_team_ids: items[i].channel.visible_team_ids,
        };
        await emit(
          orgId,
          'message.created',
          presentMessage(storedInbound(items[i], row.message_id, row.chat_id)),
          chatAudience(scope),
        );
      }
      return rows;
      // One organisation's slow statement must not hold the others' messages.
    },
    { statementTimeoutMs: app.config.ingestStatementTimeoutMs },
  );
  // The events in emit order: each message's own, after its chat's announcement.
  const byMessage = new Map<string, StoredEvent[]>();
  let pending: StoredEvent[] = [];
  for (const e of emitted) {
    pending.push(e);
    if (e.type === 'message.created') {
      byMessage.set((e.payload as { id: string }).id, pending);
      pending = [];
    }
  }
  return rows.map((row): BatchOutcome<Stored, StoredEvent> => {
    if (row.duplicate_id && row.duplicate_chat_id)
      return {
        kind: 'duplicate',
        result: { duplicate: true, messageId: row.duplicate_id, chatId: row.duplicate_chat_id },
      };
    if (!row.message_id || !row.chat_id) return { kind: 'miss' };
    return {
      kind: 'appended',
      result: {
        duplicate: false,
        messageId: row.message_id,
        chatId: row.chat_id,
        queued: !!row.queued,
        opened: !!row.chat_created,
      },
      events: byMessage.get(row.message_id) ?? [],
    };
  });
}
