import type { ImapFlow, MailboxObject, MessageEnvelopeObject } from 'imapflow';
import type { AdapterChannel, AdapterContext, InboundEvent, PollSession } from '../types.ts';
import { closeImap, imapClient } from './net.ts';
import { type ParsedMail, parseMail } from './parse.ts';
import * as Q from './queries.ts';
import { addressOf, mailboxKey, pollIntervalMs, serverOf } from './settings.ts';

/**
 * Where reading INBOX stands: the mailbox it belongs to, its UIDVALIDITY, the last UID handed to ingest, the
 * newest arrival seen (for a re-scan after a UIDVALIDITY change) and, during such a re-scan, its start date.
 */
export type MailCursor = {
  mailbox: string;
  uidValidity: string;
  lastUid: number;
  lastDate?: string;
  rescanSince?: string;
};

/** Mails read per pass before the cursor's next turn (EMAIL_FETCH_BATCH): a long backlog is read in parts. */
const batchOf = (ctx: AdapterContext) => Number(ctx.env.EMAIL_FETCH_BATCH) || 50;
/** An IDLE wait is renewed this often even when the server stays silent. */
const IDLE_WAIT_MS = 5 * 60_000;
const DAY_MS = 24 * 3600_000;

/**
 * The cursor for the INBOX as it is now. A new channel starts where its connection check stood (mail from then
 * on); a changed UIDVALIDITY (the server renumbered the mailbox) re-reads everything since a day before the
 * newest mail seen: Message-IDs make that harmless (ingest dedupes them), so nothing is lost and nothing doubled.
 */
export function align(
  stored: Partial<MailCursor>,
  box: Pick<MailboxObject, 'uidValidity' | 'uidNext'>,
  mailbox: string,
  start?: { uidValidity?: string; uidNext?: number; mailbox?: string },
): MailCursor {
  const validity = String(box.uidValidity);
  if (stored.mailbox === mailbox && stored.uidValidity === validity && typeof stored.lastUid === 'number')
    return stored as MailCursor;
  if (stored.mailbox === mailbox && stored.uidValidity) {
    const since = new Date(new Date(stored.lastDate ?? Date.now()).getTime() - DAY_MS).toISOString();
    return { mailbox, uidValidity: validity, lastUid: 0, lastDate: stored.lastDate, rescanSince: since };
  }
  const fromStart = start?.mailbox === mailbox && start.uidValidity === validity && start.uidNext;
  return {
    mailbox,
    uidValidity: validity,
    lastUid: (fromStart ? (start.uidNext as number) : box.uidNext) - 1,
  };
}

/** UIDs after the cursor, oldest first. */
async function newUids(client: ImapFlow, c: MailCursor): Promise<number[]> {
  const query = c.rescanSince ? { since: new Date(c.rescanSince) } : { uid: `${c.lastUid + 1}:*` };
  const found = (await client.search(query, { uid: true })) || [];
  return found.filter((uid) => uid > c.lastUid).sort((a, b) => a - b);
}

/** Waits in IDLE until the server announces new mail, the session ends, or a while passes. */
function waitForMail(client: ImapFlow, signal: AbortSignal, announced: () => boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('exists', done);
      client.off('close', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, IDLE_WAIT_MS);
    client.on('exists', done);
    client.on('close', done);
    signal.addEventListener('abort', done);
    // New mail announced while we were reading (in a SEARCH or FETCH answer): no wait.
    if (signal.aborted || announced()) return done();
    client.idle().catch(done);
  });
}

/** What one mail means for ingest, with the thread it answers (its dialog's client) looked up. */
async function eventsOf(
  ctx: AdapterContext,
  channel: AdapterChannel,
  mail: ParsedMail,
): Promise<InboundEvent[]> {
  if (mail.kind === 'auto') return [];
  if (mail.kind === 'bounce') {
    const ours = await Q.findOutboundMail(ctx.db, channel.id, mail.original);
    return ours?.message_id
      ? [{ kind: 'status', messageId: ours.message_id, status: 'undelivered', reason: mail.reason }]
      : [];
  }
  // Our own mail coming back (a copy, a loop) is not a customer's.
  if (!mail.from.address || mail.from.address === addressOf(channel).toLowerCase()) return [];
  const thread = await Q.findThread(ctx.db, channel.id, mail.refs);
  // A reply from another address (the customer's other mailbox, a colleague in copy) joins the thread's dialog:
  // it says who wrote, and leaves the dialog's client as named.
  const other = thread && thread.client_external_id !== mail.from.address;
  const sender = other ? `${mail.from.name ? `${mail.from.name} ` : ''}<${mail.from.address}>` : '';
  // A new thread shows its subject above the text; a reply's subject is the thread's.
  const head = thread ? sender : mail.subject;
  const text = [head, mail.text].filter(Boolean).join('\n\n');
  return [
    {
      kind: 'message',
      message: {
        externalMessageId: mail.rfcId,
        client: {
          externalId: thread?.client_external_id ?? mail.from.address,
          name: other ? '' : mail.from.name,
        },
        text: text || (mail.files.length ? '' : mail.subject || '—'),
        attachments: [],
        files: mail.files,
      },
    },
  ];
}

/** Mails larger than this (EMAIL_MAX_BYTES, 30 MB by default) are not downloaded: a notice stands for them. */
const maxBytesOf = (ctx: AdapterContext) => Number(ctx.env.EMAIL_MAX_BYTES) || 30 * 1024 * 1024;

/**
 * What a mail we will not download (too large) or cannot parse says, from its envelope: a visible notice in the
 * sender's dialog, never a silent loss (and never a mailbox stuck on one mail).
 */
function notice(envelope: MessageEnvelopeObject | undefined, uid: number, text: string): ParsedMail {
  const from = envelope?.replyTo?.[0] ?? envelope?.from?.[0];
  const rfcId = envelope?.messageId?.replace(/^<|>$/g, '') || `uid-${uid}@no-message-id`;
  if (!from?.address) return { kind: 'auto', rfcId, why: 'no sender' };
  return {
    kind: 'mail',
    rfcId,
    subject: envelope?.subject ?? '',
    refs: envelope?.inReplyTo ? [envelope.inReplyTo.replace(/^<|>$/g, '')] : [],
    from: { address: from.address.toLowerCase(), name: envelope?.from?.[0]?.name ?? '' },
    text,
    files: [],
  };
}

/** Reads one mail by UID, hands it to ingest and records its headers (threads, replies' subjects). */
async function take(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
  client: ImapFlow,
  uid: number,
) {
  const head = await client.fetchOne(
    String(uid),
    { size: true, envelope: true, internalDate: true },
    { uid: true },
  );
  if (head === false) return undefined;
  let mail: ParsedMail;
  if ((head.size ?? 0) > maxBytesOf(ctx)) {
    const mb = Math.ceil((head.size ?? 0) / 1048576);
    mail = notice(head.envelope, uid, `[E-mail of ${mb} MB: too large to receive]`);
  } else {
    const msg = await client.fetchOne(String(uid), { source: true }, { uid: true });
    if (msg === false || !msg.source) return undefined;
    mail = await parseMail(msg.source).catch(() =>
      notice(head.envelope, uid, '[E-mail that could not be read]'),
    );
  }
  const events = await eventsOf(ctx, channel, mail);
  const received = events.length ? await session.receive(events) : [];
  if (mail.kind === 'mail' && events[0]?.kind === 'message') {
    const stored = received[0];
    await Q.recordEmail(ctx.db, {
      orgId: channel.organisationId,
      channelId: channel.id,
      chatId: stored?.chatId ?? null,
      messageId: stored?.messageId ?? null,
      direction: 'in',
      rfcId: mail.rfcId,
      clientExternalId: events[0].message.client.externalId,
      subject: mail.subject,
      refs: mail.refs,
    });
  }
  const date = head.internalDate ? new Date(head.internalDate) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : undefined;
}

/**
 * One session of a mailbox: reads INBOX from the stored cursor, each mail handed to ingest and the cursor saved
 * after it (a crash re-reads at most that mail, which ingest dedupes by its Message-ID); then waits in IDLE for
 * more while the server offers it and the session lasts, or answers when to poll again when it does not.
 */
export async function pollEmail(
  ctx: AdapterContext,
  channel: AdapterChannel,
  session: PollSession,
): Promise<{ againInMs: number }> {
  const server = serverOf(channel, 'receive');
  const mailbox = mailboxKey(server);
  const client = await imapClient(ctx, server);
  const stop = () => void closeImap(client);
  session.signal.addEventListener('abort', stop);
  let announced = false;
  client.on('exists', () => {
    announced = true;
  });
  try {
    await client.connect();
    const lock = await client.getMailboxLock('INBOX', { readOnly: true });
    try {
      let cursor = session.cursor as Partial<MailCursor>;
      for (;;) {
        if (session.signal.aborted) return { againInMs: 0 };
        const c = align(
          cursor,
          client.mailbox as MailboxObject,
          mailbox,
          channel.settings.imapStart as never,
        );
        if (c !== cursor && !(await session.saveCursor(c))) return { againInMs: 0 };
        cursor = c;
        announced = false;
        const uids = await newUids(client, c);
        for (const uid of uids.slice(0, batchOf(ctx))) {
          if (session.signal.aborted) return { againInMs: 0 };
          const date = await take(ctx, channel, session, client, uid);
          cursor = {
            ...cursor,
            lastUid: uid,
            lastDate: date && date > (cursor.lastDate ?? '') ? date : cursor.lastDate,
          };
          if (!(await session.saveCursor(cursor))) return { againInMs: 0 };
        }
        if (uids.length > batchOf(ctx)) return { againInMs: 0 };
        if (cursor.rescanSince) {
          const { rescanSince: _done, ...rest } = cursor;
          cursor = rest;
          if (!(await session.saveCursor(cursor))) return { againInMs: 0 };
        }
        if (!client.capabilities.has('IDLE')) return { againInMs: pollIntervalMs(ctx) };
        await waitForMail(client, session.signal, () => announced);
      }
    } finally {
      lock.release();
    }
  } finally {
    session.signal.removeEventListener('abort', stop);
    await closeImap(client);
  }
}
