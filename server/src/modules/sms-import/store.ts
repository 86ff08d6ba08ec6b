import type { Queryable } from '../../db/index.ts';
import { contactsByPhone } from '../clients/phone-contacts.ts';
import { writeImportedMessages } from '../conversation/imported-messages.ts';
import type { SmsItem } from './formats.ts';

/**
 * SMS stored in the clients' histories, in the caller's transaction (a file's chunk, a callback's entries): each
 * phone's contact of the channel found or made (and its client), then the SMS written, those already stored skipped.
 * Answers how many were stored.
 */
export async function storeSms(
  q: Queryable,
  channel: { orgId: string; channelId: string; teamId: string },
  items: SmsItem[],
  now: Date,
): Promise<number> {
  if (!items.length) return 0;
  const contacts = await contactsByPhone(
    q,
    channel.orgId,
    channel.channelId,
    items.map((i) => i.phone),
  );
  return writeImportedMessages(q, {
    ...channel,
    now,
    items: items.flatMap((i) => {
      const c = contacts.get(i.phone);
      return c ? [{ ...i, contactId: c.contactId, clientId: c.clientId }] : [];
    }),
  });
}
