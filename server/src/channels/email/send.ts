import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { AdapterChannel, AdapterContext, OutboundMessage, SendResult } from '../types.ts';
import { closeImap, failureOf, imapClient, smtpTransport } from './net.ts';
import * as Q from './queries.ts';
import { addressOf, domainOf, serverOf } from './settings.ts';

/** References kept in a reply: the thread's start and its latest mails (RFC 5322 §3.6.4 allows trimming). */
const REFERENCES_MAX = 20;

/** Our Message-ID of one of our messages: the same on every attempt, so a retried send is one mail to the client. */
export const rfcIdOf = (messageId: string, address: string) => `${messageId}@${domainOf(address)}`;

/** 'Re: ' once before the thread's subject, whatever the clients put there before ('RE:', 'Re[2]:', 'Ответ:'). */
export function replySubject(subject: string): string {
  const base = subject.replace(/^\s*((re|fwd?|aw|sv|ответ|отв)(\[\d+\])?\s*:\s*)+/i, '').trim();
  return `Re: ${base}`.trim();
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** The text as simple HTML: escaped, line breaks kept (the alternative a mail client shows). */
export const textAsHtml = (text: string) =>
  `<!doctype html><html><body><div style="font-family:sans-serif;white-space:pre-wrap">${escapeHtml(text).replace(/\r?\n/g, '<br>')}</div></body></html>`;

/** Appends our sent mail to the mailbox's Sent folder when the server names one (best effort). */
async function appendToSent(ctx: AdapterContext, channel: AdapterChannel, raw: Buffer): Promise<void> {
  const client = await imapClient(ctx, serverOf(channel, 'receive'));
  try {
    await client.connect();
    const sent = (await client.list()).find((b) => b.specialUse === '\\Sent');
    if (sent) await client.append(sent.path, raw, ['\\Seen']);
  } finally {
    await closeImap(client);
  }
}

/**
 * One of our messages as a mail to the client: our Message-ID, In-Reply-To and References of the thread so the
 * client's mail program threads it, 'Re: <subject>', the text with an HTML alternative and the attachments from
 * our storage. Sent once the SMTP server accepts it (a 5xx refusal is final: Undelivered; 4xx and network
 * failures are retried); the same bytes are then appended to Sent when the server offers one.
 */
export async function sendEmail(
  ctx: AdapterContext,
  channel: AdapterChannel,
  m: OutboundMessage,
): Promise<SendResult> {
  // A mail cannot be changed once sent: an edit stays ours.
  if (m.event === 'message.updated') return { ok: true };
  const address = addressOf(channel);
  const rfcId = rfcIdOf(m.id, address);
  const thread = await Q.latestOfChat(ctx.db, channel.id, m.chatId, m.client.externalId);
  const refs = thread ? [...[...thread.refs].reverse(), thread.rfc_id].slice(-REFERENCES_MAX) : [];
  const subject = thread?.subject ? replySubject(thread.subject) : 'Re:';
  const attachments: Mail.Attachment[] = [];
  const links: string[] = [];
  for (const a of m.attachments) {
    const stored = await ctx.readFile(channel.organisationId, a.url);
    if (stored)
      attachments.push({
        filename: a.name ?? stored.name ?? 'file',
        content: stored.data,
        contentType: a.contentType ?? stored.contentType,
      });
    else links.push(a.url);
  }
  const text = [m.text, ...links].filter(Boolean).join('\n');
  const mail: Mail.Options = {
    from: address,
    to: m.client.externalId,
    subject,
    messageId: `<${rfcId}>`,
    ...(thread ? { inReplyTo: `<${thread.rfc_id}>`, references: refs.map((r) => `<${r}>`) } : {}),
    text,
    html: textAsHtml(text),
    attachments,
    date: new Date(m.createdAt),
    // RFC 3834: automation's mail (an automatic reply, a bot) says so; customers' auto-responders then stay silent.
    ...(m.automatic ? { headers: { 'Auto-Submitted': 'auto-replied' } } : {}),
  };
  const raw = await new MailComposer(mail).compile().build();
  // Recorded before sending: a bounce may come back before the send's answer is stored.
  await Q.recordEmail(ctx.db, {
    orgId: channel.organisationId,
    channelId: channel.id,
    chatId: m.chatId,
    messageId: m.id,
    direction: 'out',
    rfcId,
    clientExternalId: m.client.externalId,
    subject,
    refs: thread ? [thread.rfc_id, ...thread.refs].slice(0, REFERENCES_MAX) : [],
  });
  try {
    const transport = await smtpTransport(ctx, serverOf(channel, 'send'));
    try {
      await transport.sendMail({ envelope: { from: address, to: [m.client.externalId] }, raw });
    } finally {
      transport.close();
    }
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    const reason = code ? `SMTP ${code}: ${(err as Error).message}` : `SMTP: ${failureOf(err)}`;
    return { ok: false, retryable: !(code && code >= 500), error: reason.slice(0, 500) };
  }
  await appendToSent(ctx, channel, raw).catch(() => undefined);
  return { ok: true, externalId: rfcId };
}
