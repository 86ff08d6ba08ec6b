import { sanitizeStrings } from '@smartconnect/contracts';
import type { AdapterChannel, InboundEvent, RawRequest } from '../types.ts';
import { VISITOR_HEADER, visitorOf } from './identity.ts';

/** What the widget routes hand the adapter (already validated there): a visitor's message, or a read mark. */
export type SiteChatPush =
  | {
      kind: 'message';
      clientMessageId: string;
      name: string;
      text: string;
      attachments: { url: string; name?: string; contentType?: string; size?: number }[];
      /** The payload of a bot's button the visitor pressed (the text is its label). */
      payload?: string;
    }
  | { kind: 'status'; messageId: string; status: 'delivered' | 'read' };

/** The visitor is the signed identity of the request (verify has checked it); the body says what they did. */
export function parseSiteChat(channel: AdapterChannel, req: RawRequest): InboundEvent[] {
  const visitorId = visitorOf(channel.secrets.visitorKey, channel.id, req.headers[VISITOR_HEADER]);
  if (!visitorId) return [];
  const push = sanitizeStrings(req.body) as SiteChatPush;
  if (push.kind === 'status') return [{ kind: 'status', messageId: push.messageId, status: push.status }];
  const message = {
    // Scoped by the visitor: one visitor's ids never collide with (or dedupe against) another's.
    externalMessageId: `${visitorId}:${push.clientMessageId}`,
    client: { externalId: visitorId, name: push.name },
    text: push.text,
    attachments: push.attachments,
  };
  // A pressed bot button: the label is what the visitor saw and sent, the payload is for the bot.
  if (push.payload) return [{ kind: 'postback', data: push.payload, message }];
  return [{ kind: 'message', message }];
}
