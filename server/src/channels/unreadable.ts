import { sanitizeStrings } from '@smartconnect/contracts';
import { z } from 'zod';
import { INBOUND_BOUNDS } from './bounds.ts';
import type { InboundEvent, InboundMessage, ParsedEvent } from './types.ts';

/**
 * What an adapter does with a provider payload it cannot read (DECISIONS.md "Unreadable provider updates"): the
 * webhook is answered 2xx either way (providers retry a non-2xx forever). A part that names its client (a readable
 * sender and message id) becomes a message in that client's dialog saying `[Unreadable <provider> update: <reason>]`,
 * under the provider's message id (a redelivery is a duplicate); a part that names no one is an `unreadable` event,
 * logged and recorded on the channel (ChannelDto.lastUnreadable).
 */

/**
 * Longest provider id we keep (message, client, status ids), the inbound bound of ids (bounds.ts): a longer one is
 * unreadable in a provider's payload (a B-tree index cannot hold a 100k id).
 */
export const ID_MAX = INBOUND_BOUNDS.externalId;
/** Longest client name of a notice's client (the inbound bound of names, bounds.ts). */
const NAME_MAX = INBOUND_BOUNDS.name;
/** Longest reason shown. */
const REASON_MAX = 200;

/** A provider id as a string: non-empty, at most ID_MAX. */
export const providerId = z.string().min(1).max(ID_MAX);
/** A provider id the provider writes as a number (Telegram, VK): an integer, safe in JavaScript. */
export const numericId = z.number().int().safe();

/** The provider's payload with every string storable (NUL dropped, lone surrogates replaced), before any schema. */
export const storable = <T>(body: T): T => sanitizeStrings(body);

/** The first problem a schema found, short: where, and what it expected. */
export function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'malformed';
  const where = issue.path.map(String).join('.') || 'body';
  const what =
    issue.code === 'invalid_type'
      ? `expected ${issue.expected}`
      : issue.code === 'too_big'
        ? 'too long'
        : issue.code === 'too_small'
          ? 'empty'
          : issue.code.replace(/_/g, ' ');
  return `${where}: ${what}`.slice(0, REASON_MAX);
}

/** The visible text of an update that could not be read, stored in its client's dialog. */
export const unreadableText = (provider: string, reason: string) =>
  `[Unreadable ${provider} update: ${reason.slice(0, REASON_MAX)}]`;

/** The notice of an unreadable update of a known client, as a message under the provider's own id. */
export function unreadableMessage(
  provider: string,
  reason: string,
  id: string,
  client: InboundMessage['client'],
): Extract<InboundEvent, { kind: 'message' }> {
  return {
    kind: 'message',
    message: { externalMessageId: id, client, text: unreadableText(provider, reason), attachments: [] },
  };
}

/** A part that names no client. */
export const unreadable = (provider: string, reason: string): ParsedEvent => ({
  kind: 'unreadable',
  reason: `${provider}: ${reason}`.slice(0, REASON_MAX),
});

/** `value` read with `schema`: its data, or why it cannot be read. */
export function read<T>(
  schema: z.ZodType<T>,
  value: unknown,
): { ok: true; data: T } | { ok: false; reason: string } {
  const res = schema.safeParse(value);
  return res.success ? { ok: true, data: res.data } : { ok: false, reason: reasonOf(res.error) };
}

/** A name from the parts of a payload that are strings (the rest ignored): for a notice's client. */
export function nameFrom(parts: unknown[], fallback: string): string {
  return (
    parts
      .filter((p): p is string => typeof p === 'string')
      .join(' ')
      .trim()
      .slice(0, NAME_MAX) || fallback
  );
}

/** A reason with its place: `message.text: expected string`. */
export const at = (prefix: string, reason: string) =>
  reason.startsWith('body:') ? `${prefix}${reason.slice(4)}` : `${prefix}.${reason}`;
