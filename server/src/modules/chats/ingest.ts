import { type MessageDto, sanitizeStrings } from '@smartconnect/contracts';
import type { InboundMessage } from '../../channels/types.ts';
import type { AppContext } from '../../context.ts';
import { runJobsNow } from '../../jobs/pipeline.ts';
import { enqueueInbound } from '../../jobs/pipeline-queries.ts';
import { insertTimerIfAbsent, upsertTimer } from '../../jobs/queries.ts';
import type { StoredEvent } from '../../realtime/bus.ts';
import { withEvents } from '../../realtime/emit.ts';
import { type BatchOutcome, type BatchStore, IngestBatcher, MicroStamps } from './ingest-batcher.ts';
import { emitChat, type Tx } from './lifecycle.ts';
import { chatAudience } from './policy.ts';
import { presentMessage } from './presenter.ts';
import * as Q from './queries.ts';

export type IngestChannel = {
  id: string;
  organisation_id: string;
  team_id: string;
  half_expired_minutes: number | null;
  expired_minutes: number | null;
  org_options: string[];
  /** Every inbound message of the organisation goes through the pipeline, not only those opening a chat. */
  org_inbound_automation: boolean;
};

export type IngestResult = { duplicate: boolean; messageId: string; chatId: string };
/** Inside ingest: whether the message's pipeline job was enqueued with it. */
type Stored = IngestResult & { queued?: boolean };

class Duplicate extends Error {}

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
const batchers = new WeakMap<AppContext, Batcher>();

function batcherOf(app: AppContext): Batcher {
  let batcher = batchers.get(app);
  if (!batcher) {
    batcher = new IngestBatcher(ingestStore(app), {
      maxBatch: 100,
      lanes: app.db.kind === 'postgres' ? INGEST_LANES : 1,
    });
    batchers.set(app, batcher);
  }
  return batcher;
}

/**
 * One inbound customer message, answered once it is committed: dedupe by (channel, provider message id),
 * upsert the client and contact (their name follows the provider's), find the open chat or open a new session,
 * append the message, write history, arm its timers, emit events and enqueue the message's pipeline job when it
 * needs a decision (it opens a chat, or the organisation's automation sees every message). Routing is not done
 * here: the job runs right after the commit (jobs/pipeline.ts), and again from the table if this instance dies.
 * A retry of the same provider message changes nothing. Every string of the message is made storable first
 * (sanitizeStrings).
 *
 * Messages into ongoing chats are group-committed (ingest-batcher.ts): those arriving together are written by
 * one statement (queries.appendBatchToOpenChats) and each is answered after that shared commit. The first
 * message of a client or of a new session takes one transaction of its own (openAndAppend).
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
  const { queued, ...result } = await batcher.submit(
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
  // The pipeline's decision (a new chat's operator) is taken at once here; the job is durable if this fails.
  if (queued) await runJobsNow(app, [result.messageId]);
  return result;
}

const stampsByApp = new WeakMap<AppContext, MicroStamps>();
function stampsOf(app: AppContext): MicroStamps {
  let stamps = stampsByApp.get(app);
  if (!stamps) {
    stamps = new MicroStamps();
    stampsByApp.set(app, stamps);
  }
  return stamps;
}

/** The batcher's view of the database: the batch statement, the lone path, the bus. */
function ingestStore(app: AppContext): BatchStore<Item, Stored, StoredEvent> {
  const store: BatchStore<Item, Stored, StoredEvent> = {
    append: (items) => appendBatch(app, items),
    async alone(item, append) {
      if (append) {
        const [outcome] = await appendBatch(app, [item]);
        if (outcome.kind === 'appended') {
          await app.bus.publish([outcome.event]);
          return outcome.result;
        }
        if (outcome.kind === 'duplicate') return outcome.result;
      }
      return ingestTransactional(app, item.channel, item.msg);
    },
    publish: (events) => app.bus.publish(events),
    duplicateOf: (result) => ({ ...result, duplicate: true, queued: false }),
  };
  return store;
}

/** The message.created payload of an inbound message, without id and chatId. */
function inboundPayload(item: Item): Omit<MessageDto, 'id' | 'chatId'> {
  return {
    direction: 'in',
    kind: 'normal',
    internal: false,
    text: item.msg.text,
    attachments: item.msg.attachments,
    status: null,
    statusReason: null,
    author: null,
    externalMessageId: item.msg.externalMessageId,
    editedAt: null,
    createdAt: item.now.toISOString(),
  };
}

/** Messages into ongoing chats, in ONE statement: what each became, in order. */
async function appendBatch(app: AppContext, items: Item[]): Promise<BatchOutcome<Stored, StoredEvent>[]> {
  const payloads = items.map(inboundPayload);
  const rows = await Q.appendBatchToOpenChats(
    app.db,
    items.map(({ channel, msg, now, at }, i) => {
      const expiring = channel.org_options.includes('OPTION_EXPIRING');
      return {
        orgId: channel.organisation_id,
        channelId: channel.id,
        externalClientId: msg.client.externalId,
        clientName: msg.client.name,
        now,
        at,
        text: msg.text,
        attachments: msg.attachments,
        externalMessageId: msg.externalMessageId,
        payloadJson: JSON.stringify(payloads[i]),
        halfExpiredMinutes: expiring ? channel.half_expired_minutes : null,
        expiredMinutes: expiring ? channel.expired_minutes : null,
        pipeline: channel.org_inbound_automation,
      };
    }),
  );
  if (rows.length !== items.length)
    throw new Error(`ingest batch: ${rows.length} rows for ${items.length} messages`);
  return rows.map((row, i): BatchOutcome<Stored, StoredEvent> => {
    if (row.duplicate_id && row.duplicate_chat_id)
      return {
        kind: 'duplicate',
        result: { duplicate: true, messageId: row.duplicate_id, chatId: row.duplicate_chat_id },
      };
    if (!row.message_id || !row.chat_id || !row.event_id || !row.event_created_at || !row.audience)
      return { kind: 'miss' };
    const item = items[i];
    return {
      kind: 'appended',
      result: {
        duplicate: false,
        messageId: row.message_id,
        chatId: row.chat_id,
        queued: item.channel.org_inbound_automation,
      },
      event: {
        id: row.event_id,
        organisationId: item.channel.organisation_id,
        type: 'message.created',
        payload: { id: row.message_id, chatId: row.chat_id, ...payloads[i] },
        audience: row.audience,
        createdAt: new Date(row.event_created_at).toISOString(),
      },
    };
  });
}

/** The transactional path, retried on a lock cycle; a provider retry answers the stored message. */
async function ingestTransactional(
  app: AppContext,
  channel: IngestChannel,
  msg: InboundMessage,
): Promise<Stored> {
  for (let attempt = 1; ; attempt++) {
    try {
      const now = app.clock.now();
      return await withEvents(app, (q, emit) => openAndAppend({ q, emit, now }, channel, msg));
    } catch (err) {
      if (err instanceof Duplicate) {
        const first = await Q.findMessageByExternal(app.db, channel.id, msg.externalMessageId);
        if (!first) throw new Error('duplicate message not found after conflict');
        return { duplicate: true, messageId: first.id, chatId: first.chat_id };
      }
      // PostgreSQL breaks a rare lock cycle by failing one side: that side simply runs again.
      if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
    }
  }
}

/** First message of a client, or of a new session: client, contact and chat are created, then the chat is routed. */
async function openAndAppend(tx: Tx, channel: IngestChannel, msg: InboundMessage): Promise<Stored> {
  const { q, now } = tx;
  const orgId = channel.organisation_id;
  const name = msg.client.name || msg.client.externalId;
  const contact = await Q.upsertContact(q, orgId, channel.id, msg.client.externalId, name);
  const chat = await Q.openChat(q, {
    orgId,
    channelId: channel.id,
    clientId: contact.client_id,
    contactId: contact.id,
    teamId: channel.team_id,
    text: msg.text,
    now,
  });
  const message = await Q.insertMessage(q, {
    orgId,
    chatId: chat.id,
    channelId: channel.id,
    direction: 'in',
    kind: 'normal',
    internal: false,
    text: msg.text,
    attachments: msg.attachments,
    status: null,
    authorId: null,
    externalMessageId: msg.externalMessageId,
    now,
  });
  // Another delivery of this message committed first: undo everything this one did.
  if (!message) throw new Duplicate();
  // After the chat: the order the batch statement locks chat, contact and client in.
  if (!contact.created) await Q.renameContact(q, contact.id, msg.client.name);
  const touched = chat.created ? chat : await Q.touchChatOnClientMessage(q, chat.id, msg.text, now);
  // A brand-new contact has no earlier session to reopen.
  const reopened =
    chat.created && !contact.created && (await Q.hadEarlierChat(q, contact.client_id, chat.id));
  if (chat.created)
    await Q.insertHistory(q, {
      orgId,
      chatId: chat.id,
      kind: reopened ? 'reopen' : 'created',
      toTeamId: channel.team_id,
      now,
    });
  const current = chat.created
    ? await emitChat(tx, orgId, chat.id, 'chat.created')
    : await Q.findChat(q, orgId, chat.id);
  if (!current) throw new Error('chat vanished');
  await tx.emit(orgId, 'message.created', presentMessage(message), chatAudience(current));
  if (touched.auto_close_minutes)
    await upsertTimer(
      q,
      orgId,
      'auto_close',
      chat.id,
      new Date(now.getTime() + touched.auto_close_minutes * 60_000),
    );
  await armOverdue(tx, channel, chat.id, new Date(touched.unanswered_since));
  // The decision (bot, rules, auto-replies, queue and operator pick) is the pipeline's, after this commit.
  const queued = chat.created || channel.org_inbound_automation;
  if (queued) await enqueueInbound(q, { orgId, messageId: message.id, chatId: chat.id, now });
  return { duplicate: false, messageId: message.id, chatId: chat.id, queued };
}

/** A client message that opens an unanswered window starts the overdue clocks (OPTION_EXPIRING, channel thresholds). */
async function armOverdue(tx: Tx, channel: IngestChannel, chatId: string, unansweredSince: Date) {
  if (unansweredSince.getTime() !== tx.now.getTime() || !channel.org_options.includes('OPTION_EXPIRING'))
    return;
  const at = (minutes: number) => new Date(unansweredSince.getTime() + minutes * 60_000);
  const orgId = channel.organisation_id;
  if (channel.half_expired_minutes)
    await insertTimerIfAbsent(tx.q, orgId, 'overdue_half', chatId, at(channel.half_expired_minutes));
  if (channel.expired_minutes)
    await insertTimerIfAbsent(tx.q, orgId, 'overdue_expired', chatId, at(channel.expired_minutes));
}
