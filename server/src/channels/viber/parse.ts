import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import { AppError } from '../../http/errors.ts';
import type { InboundEvent, MediaRef, RawRequest } from '../types.ts';

// The provider's callbacks (api.ts): an inbound message from a phone, or a delivery report on one of ours.
type FileRef = { url?: unknown; name?: unknown; contentType?: unknown; size?: unknown };
type Callback = {
  event?: unknown;
  id?: unknown;
  phone?: unknown;
  name?: unknown;
  text?: unknown;
  image?: FileRef;
  file?: FileRef;
  messageId?: unknown;
  status?: unknown;
  reason?: unknown;
};

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

function mediaOf(f: FileRef | undefined, fallback: string, type: string): MediaRef[] {
  if (!f || typeof f.url !== 'string' || !f.url) return [];
  return [
    {
      ref: f.url,
      name: typeof f.name === 'string' && f.name ? f.name : fallback,
      contentType: typeof f.contentType === 'string' ? f.contentType : type,
      ...(typeof f.size === 'number' ? { size: f.size } : {}),
    },
  ];
}

export function parseViberBusiness(req: RawRequest): InboundEvent[] {
  const c = req.body as Callback | undefined;
  if (!c || typeof c !== 'object' || typeof c.event !== 'string')
    throw new AppError('validationException', { _: M.incorrectValue });
  if (c.event === 'message') {
    if (typeof c.id !== 'string' || typeof c.phone !== 'string' || !phoneId(c.phone))
      throw new AppError('validationException', { _: M.incorrectValue });
    const phone = phoneId(c.phone);
    // No name (the provider tells it only when the client shares it): the stored one stays, a new client is their phone.
    const name = typeof c.name === 'string' ? c.name.trim() : '';
    const media = [
      ...mediaOf(c.image, 'picture.jpg', 'image/jpeg'),
      ...mediaOf(c.file, 'file', 'application/octet-stream'),
    ];
    let text = typeof c.text === 'string' ? c.text : '';
    if (!text.trim() && !media.length) text = '[Viber: empty message]';
    return [
      {
        kind: 'message',
        message: {
          externalMessageId: c.id,
          client: { externalId: phone, name },
          text,
          attachments: [],
          media,
        },
      },
    ];
  }
  if (c.event === 'status') {
    const status = typeof c.status === 'string' ? STATUS[c.status] : undefined;
    if (typeof c.messageId !== 'string' || !status) return [];
    return [
      {
        kind: 'status',
        externalId: c.messageId,
        status,
        ...(status === 'undelivered'
          ? { reason: typeof c.reason === 'string' && c.reason ? c.reason : String(c.status) }
          : {}),
      },
    ];
  }
  return [];
}
