/** The reason the server stores when Viber refuses an unsubscribed receiver (server channels/viber_bot/send.ts). */
export const VIBER_SESSION_EXPIRED = 'Viber registration session expired';

type Translate = (key: string, values?: Record<string, string>) => string;

/**
 * The Undelivered tick's explanation: the provider's reason as it came, except the §8 hints the server names by
 * their spec text, which are shown in the page's language.
 */
export function deliveryReason(reason: string | null, t: Translate): string {
  const known = reason?.startsWith(VIBER_SESSION_EXPIRED) ? t('conversation.viberSessionExpired') : reason;
  return known
    ? t('conversation.undeliveredReason', { reason: known })
    : t('conversation.undeliveredUnknown');
}
