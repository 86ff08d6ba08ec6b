import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { MediaRef, ParsedEvent, RawRequest } from '../types.ts';
import { ID_MAX, nameFrom, providerId, read, storable, unreadableMessage } from '../unreadable.ts';

// The provider's callbacks (api.ts), as schemas: the fields we use are checked, the others let through.
const str = z.string().optional();
const fileRef = z
  .looseObject({ url: str, name: str, contentType: str, size: z.number().optional() })
  .optional();
type FileRef = z.output<typeof fileRef>;
const messageEvent = z.looseObject({
  id: providerId,
  phone: z.string().max(ID_MAX),
  name: str,
  text: str,
  image: fileRef,
  file: fileRef,
});
/** What names a client's message when the rest cannot be read. */
const messageKey = z.looseObject({ id: providerId, phone: z.string().max(ID_MAX) });
const statusEvent = z.looseObject({ messageId: providerId, status: z.string(), reason: str });

/** The provider reads our 4xx as final (api.ts): what names no client is refused, never stored. */
const refused = (reason: string) =>
  new AppError('validationException', { _: M.incorrectValue }, { reason: `Viber: ${reason}` });

/** The client's phone as their id at the channel: its digits (the provider writes +375..., 7...). */
export const phoneId = (v: string) => v.replace(/\D/g, '');

const STATUS: Record<string, 'delivered' | 'read' | 'undelivered'> = {
  delivered: 'delivered',
  read: 'read',
  seen: 'read',
  undelivered: 'undelivered',
  failed: 'undelivered',
  expired: 'undelivered',
};

function mediaOf(f: FileRef, fallback: string, type: string): MediaRef[] {
  if (!f?.url) return [];
  return [
    {
      ref: f.url,
      name: f.name || fallback,
      contentType: f.contentType ?? type,
      ...(f.size !== undefined ? { size: f.size } : {}),
    },
  ];
}

/**
 * One callback as events. The provider does not retry a 4xx (api.ts): a callback that cannot be read and names no
 * client is answered 400; a client's message that cannot be read is a notice in their dialog.
 */
export function parseViberBusiness(req: RawRequest): ParsedEvent[] {
  const body = storable(req.body);
  const event = read(z.looseObject({ event: z.string() }), body);
  if (!event.ok) throw refused(event.reason);
  if (event.data.event === 'message') {
    const c = read(messageEvent, body);
    if (!c.ok) {
      const key = messageKey.safeParse(body);
      if (!key.success || !phoneId(key.data.phone)) throw refused(c.reason);
      return [
        unreadableMessage('Viber', c.reason, key.data.id, {
          externalId: phoneId(key.data.phone),
          name: nameFrom([(body as { name?: unknown }).name], ''),
        }),
      ];
    }
    const phone = phoneId(c.data.phone);
    if (!phone) throw refused('phone: no digits');
    // No name (the provider tells it only when the client shares it): the stored one stays, a new client is their phone.
    const name = c.data.name?.trim() ?? '';
    const media = [
      ...mediaOf(c.data.image, 'picture.jpg', 'image/jpeg'),
      ...mediaOf(c.data.file, 'file', 'application/octet-stream'),
    ];
    let text = c.data.text ?? '';
    if (!text.trim() && !media.length) text = '[Viber: empty message]';
    return [
      {
        kind: 'message',
        message: {
          externalMessageId: c.data.id,
          client: { externalId: phone, name },
          text,
          attachments: [],
          media,
        },
      },
    ];
  }
  if (event.data.event === 'status') {
    const c = read(statusEvent, body);
    if (!c.ok) throw refused(c.reason);
    const status = Object.hasOwn(STATUS, c.data.status) ? STATUS[c.data.status] : undefined;
    if (!status) return [];
    return [
      {
        kind: 'status',
        externalId: c.data.messageId,
        status,
        ...(status === 'undelivered' ? { reason: c.data.reason || c.data.status } : {}),
      },
    ];
  }
  return [];
}
