import { createHash } from 'node:crypto';
import { MESSAGE_TEXT_MAX } from '@smartconnect/contracts';
import { type AddressObject, type Attachment, simpleParser } from 'mailparser';
import type { Media } from '../types.ts';
import { htmlToText } from './html.ts';

/** A mail as we act on it: a customer's mail, an automatic reply (ignored) or a bounce of one of ours. */
export type ParsedMail =
  | {
      kind: 'mail';
      rfcId: string;
      subject: string;
      /** Message-IDs this mail answers (In-Reply-To, then References, newest first). */
      refs: string[];
      from: { address: string; name: string };
      text: string;
      files: Media[];
    }
  | { kind: 'auto'; rfcId: string; why: string }
  | { kind: 'bounce'; rfcId: string; original: string[]; reason: string };

/** Inline images this small are tracking pixels or spacers, not pictures a person sent. */
const PIXEL_BYTES = 200;
const AUTO_SUBJECT =
  /^\s*(auto(matic)?[ -]?(reply|response|answer)|out of (the )?office|abwesenheit|автоответ|автоматический ответ|вне офиса|нет на месте|отсутств)/i;
const DAEMON = /^(mailer-daemon|postmaster|mail-daemon)@/i;

const bare = (id: string) => id.trim().replace(/^<|>$/g, '').trim();
const idsIn = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : (v ?? '').split(/\s+/))
    .flatMap((x) => x.match(/<[^>]+>|[^\s<>]+@[^\s<>]+/g) ?? [])
    .map(bare);

const header = (parsed: { headers: Map<string, unknown> }, name: string): string => {
  const v = parsed.headers.get(name);
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && 'value' in (v as object)) return String((v as { value: unknown }).value);
  return String(v);
};

const firstAddress = (a: AddressObject | AddressObject[] | undefined) => {
  const list = Array.isArray(a) ? a.flatMap((x) => x.value) : (a?.value ?? []);
  return list.find((x) => x.address);
};

/** Why a mail was written by a machine and must open no dialog nor get an automatic answer; '' for a person's. */
function automatic(parsed: Awaited<ReturnType<typeof simpleParser>>): string {
  const submitted = header(parsed, 'auto-submitted').toLowerCase();
  if (submitted && submitted !== 'no') return `Auto-Submitted: ${submitted}`;
  for (const h of ['x-autoreply', 'x-autorespond', 'x-autoresponder']) if (header(parsed, h)) return h;
  const precedence = header(parsed, 'precedence').toLowerCase();
  if (precedence === 'auto_reply' || precedence === 'junk') return `Precedence: ${precedence}`;
  if (AUTO_SUBJECT.test(parsed.subject ?? '')) return 'subject';
  return '';
}

/** The failed recipients' status of a delivery-status part (RFC 3464): the reason, or null when none failed. */
function failedReason(status: string): string | null {
  const blocks = status.split(/\r?\n\r?\n/);
  for (const block of blocks) {
    if (!/^action:\s*failed/im.test(block)) continue;
    const diagnostic = block.match(/^diagnostic-code:\s*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/im)?.[1];
    const code = block.match(/^status:\s*([0-9.]+)/im)?.[1];
    const recipient = block.match(/^final-recipient:\s*(?:rfc822;)?\s*([^\r\n]+)/im)?.[1];
    const text = (diagnostic ?? '')
      .replace(/^smtp;\s*/i, '')
      .replace(/\s+/g, ' ')
      .trim();
    return [recipient?.trim(), text || (code ? `status ${code}` : 'failed')].filter(Boolean).join(': ');
  }
  return null;
}

/** The Message-IDs of the returned original: its attached message or headers, else any in the report's body. */
function originalIds(parsed: Awaited<ReturnType<typeof simpleParser>>, raw: Buffer, ownId: string): string[] {
  const ids: string[] = [];
  const scan = (text: string) => {
    for (const m of text.matchAll(/^message-id:\s*(<[^>\r\n]+>)/gim)) {
      const id = bare(m[1]);
      if (id !== ownId && !ids.includes(id)) ids.push(id);
    }
  };
  for (const a of parsed.attachments)
    if (/^(message\/rfc822|text\/rfc822-headers|message\/global)/i.test(a.contentType))
      scan(a.content.toString('utf8'));
  if (!ids.length) scan(raw.toString('latin1'));
  return ids;
}

/** The attachment's own name (RFC 2231 / RFC 2047 decoded by mailparser; at most 255 characters, as we store names). */
function fileName(a: Attachment, i: number): string {
  // Line breaks and other control characters of a crafted name are dropped (ingest also drops NUL).
  const own = [...(a.filename ?? '')]
    .filter((c) => c.charCodeAt(0) >= 32)
    .join('')
    .trim();
  if (own)
    return own.length > 255 ? `${own.slice(0, 250)}…${own.slice(own.lastIndexOf('.')).slice(0, 4)}` : own;
  const ext = a.contentType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
  return `${a.contentType.startsWith('image/') ? 'image' : 'attachment'}-${i + 1}.${ext}`;
}

const clip = (text: string) =>
  text.length > MESSAGE_TEXT_MAX ? `${text.slice(0, MESSAGE_TEXT_MAX - 1)}…` : text;

/**
 * Parses one raw mail with mailparser (charsets such as windows-1251 and KOI8-R, quoted-printable and base64
 * bodies, RFC 2047 headers, RFC 2231 file names) and says what it is. An HTML-only mail becomes safe text.
 */
export async function parseMail(raw: Buffer): Promise<ParsedMail> {
  const parsed = await simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    keepDeliveryStatus: true,
  });
  const rfcId = parsed.messageId
    ? bare(parsed.messageId)
    : `${createHash('sha256').update(raw).digest('hex')}@no-message-id`;
  const from = firstAddress(parsed.from);
  const contentType = header(parsed, 'content-type').toLowerCase();
  const dsn = parsed.attachments.find((a) => /^message\/(global-)?delivery-status/i.test(a.contentType));
  const isReport = /multipart\/report/.test(contentType) || !!dsn;
  if (isReport || DAEMON.test(from?.address ?? '')) {
    const status = dsn ? dsn.content.toString('utf8') : '';
    const reason = dsn ? failedReason(status) : (parsed.text ?? '').trim().split(/\r?\n/)[0] || 'undelivered';
    // A delay or success report is news, not a failure: like any machine's mail it opens nothing.
    if (reason === null) return { kind: 'auto', rfcId, why: 'delivery report without failure' };
    return { kind: 'bounce', rfcId, original: originalIds(parsed, raw, rfcId), reason };
  }
  const why = automatic(parsed);
  if (why) return { kind: 'auto', rfcId, why };
  const replyTo = firstAddress(parsed.replyTo);
  const address = (replyTo?.address ?? from?.address ?? '').toLowerCase();
  const name = (from?.name || replyTo?.name || '').trim();
  const body = parsed.text?.trim()
    ? parsed.text.replace(/\r\n/g, '\n').trim()
    : parsed.html
      ? htmlToText(parsed.html)
      : '';
  const files: Media[] = [];
  for (const [i, a] of parsed.attachments.entries()) {
    if (a.related && a.contentType.startsWith('image/') && a.size <= PIXEL_BYTES) continue;
    files.push({
      data: a.content,
      contentType: a.contentType || 'application/octet-stream',
      name: fileName(a, i),
    });
  }
  return {
    kind: 'mail',
    rfcId,
    subject: (parsed.subject ?? '').trim(),
    refs: [...new Set([...idsIn(parsed.inReplyTo), ...idsIn(parsed.references).reverse()])],
    from: { address, name },
    text: clip(body),
    files,
  };
}
