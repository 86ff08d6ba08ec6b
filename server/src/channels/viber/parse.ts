import { z } from 'zod';
import type { InboundEvent, ParsedEvent, RawRequest } from '../types.ts';
import { ID_MAX, read, storable, unreadable, unreadableMessage } from '../unreadable.ts';
import { parseBigIdJson } from './api.ts';

/** The client's phone as their id at the channel: its digits (Devino writes `79990001122`, SMS.by `375291234567`). */
export const phoneId = (v: string) => v.replace(/\D/g, '');

/**
 * Inbound ids get a prefix: they share the channel's id space with the `providerId`s of our own messages, and both
 * are Devino's numbers.
 */
export const inboundId = (id: string) => `in-${id}`;

const id = z.union([z.string().regex(/^\d{1,40}$/), z.number().int().nonnegative()]).transform(String);

/** One subscriber reply as Devino POSTs it (§1a "Inbound replies"): always text. */
const reply = z.looseObject({
  id,
  parentId: id.optional(),
  receivedAt: z.string().optional(),
  subject: z.string().optional(),
  address: z.string().max(ID_MAX),
  contentType: z.string().optional(),
  content: z.string(),
});
/** What names a client when the rest of a reply cannot be read. */
const replyKey = z.looseObject({ id, address: z.string().max(ID_MAX) });

/**
 * Devino's inbound replies (§1a): a JSON array of the subscriber's replies, retried for about an hour until we answer
 * 200. Nothing here is answered otherwise: a part that names its client is a notice in their dialog, one that names
 * none is an `unreadable` event. Devino sends the id numbers bare, so they are read from the raw body.
 */
export function parseDevinoReplies(req: RawRequest): ParsedEvent[] {
  let body: unknown;
  try {
    body = storable(parseBigIdJson(req.rawBody.toString('utf8')));
  } catch {
    return [unreadable('Viber (Devino)', 'body is not JSON')];
  }
  const items = Array.isArray(body) ? body : [body];
  return items.map((item): ParsedEvent => {
    const r = read(reply, item);
    if (!r.ok) {
      const key = replyKey.safeParse(item);
      if (!key.success || !phoneId(key.data.address)) return unreadable('Viber (Devino)', r.reason);
      return unreadableMessage('Viber', r.reason, inboundId(key.data.id), {
        externalId: phoneId(key.data.address),
        name: '',
      });
    }
    const phone = phoneId(r.data.address);
    if (!phone) return unreadable('Viber (Devino)', 'address: no digits');
    const text = r.data.content.trim() ? r.data.content : '[Viber: empty message]';
    // Devino tells no name: a new client is their phone, a known one keeps the stored name.
    return {
      kind: 'message',
      message: {
        externalMessageId: inboundId(r.data.id),
        client: { externalId: phone, name: '' },
        text,
        attachments: [],
      },
    };
  });
}

/** One item of Devino's `/status` answer (§1a). */
const statusItem = z.looseObject({
  providerId: id,
  code: z.string().optional(),
  status: z.string().optional(),
  statusAt: z.string().optional(),
  error: z.string().optional(),
  smsStates: z.array(z.looseObject({ id: id.optional(), state: z.string() })).optional(),
});

const VIBER_FINAL_FAILURES = new Set(['undelivered', 'failed', 'cancelled', 'vp_expired']);

/**
 * One `/status` item as a status event of our message (by the `providerId` kept as its external id), or null while
 * it is still on its way (`enqueued`, `sent`). With the SMS fallback on, a Viber failure is followed by the SMS
 * (`smsStates`, one per segment): the message counts as delivered once every segment is, undelivered once one is
 * not, and waits while any is pending.
 */
export function devinoStatusEvent(raw: unknown): Extract<InboundEvent, { kind: 'status' }> | null {
  const got = statusItem.safeParse(raw);
  if (!got.success) return null;
  const s = got.data;
  const externalId = s.providerId;
  if (s.code && s.code !== 'ok') return { kind: 'status', externalId, status: 'undelivered', reason: s.code };
  if (s.status === 'delivered' || s.status === 'read')
    return { kind: 'status', externalId, status: s.status };
  if (!s.status || !VIBER_FINAL_FAILURES.has(s.status)) return null;
  const viberReason = s.error ? `${s.status}: ${s.error}` : s.status;
  const sms = s.smsStates ?? [];
  if (!sms.length) return { kind: 'status', externalId, status: 'undelivered', reason: viberReason };
  if (sms.some((x) => x.state === 'undelivered'))
    return { kind: 'status', externalId, status: 'undelivered', reason: `${viberReason}; SMS undelivered` };
  if (sms.every((x) => x.state === 'delivered')) return { kind: 'status', externalId, status: 'delivered' };
  return null;
}
