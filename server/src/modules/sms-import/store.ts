import type { Tx } from '../../realtime/emit.ts';
import { contactsByPhone } from '../clients/phone-contacts.ts';
import { storedImportIds, writeImportedMessages } from '../conversation/imported-messages.ts';
import type { SmsItem } from './formats.ts';

/**
 * SMS stored in the clients' histories, in the caller's transaction (a file's chunk, a callback's entries): each
 * phone's contact of the channel found or made (and its client, with its client.created event), then the SMS written, those already stored skipped.
 * Answers how many were stored.
 */
export async function storeSms(
  tx: Pick<Tx, 'q' | 'emit'>,
  channel: { orgId: string; channelId: string; teamId: string },
  items: SmsItem[],
  now: Date,
): Promise<number> {
  const { q } = tx;
  // Already stored ones (a file imported again) need no contact: only the new are looked at further.
  const stored = await storedImportIds(
    q,
    channel.channelId,
    items.map((i) => i.externalId),
  );
  const fresh = items.filter((i) => !stored.has(i.externalId));
  if (!fresh.length) return 0;
  const contacts = await contactsByPhone(
    tx,
    channel.orgId,
    channel.channelId,
    fresh.map((i) => i.phone),
  );
  return writeImportedMessages(q, {
    ...channel,
    now,
    items: fresh.flatMap((i) => {
      const c = contacts.get(i.phone);
      return c ? [{ ...i, contactId: c.contactId, clientId: c.clientId }] : [];
    }),
  });
}
