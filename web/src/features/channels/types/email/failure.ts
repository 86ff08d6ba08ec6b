import { i18n } from '../../../../shared/i18n/index.ts';

const WHY = ['address', 'unreachable', 'timeout', 'tls', 'auth', 'mailbox', 'refused'] as const;

/** §8 'Channel creation error' for a mailbox: which server failed (IMAP, SMTP or both) and why, in our words. */
export function mailboxFailure(details: Record<string, unknown>): string {
  const parts = (['receive', 'send'] as const)
    .filter((part) => details[part] !== undefined)
    .map((part) => {
      const why = WHY.find((w) => w === details[part]) ?? 'refused';
      return i18n.t(`emailChannel.part.${part}`, { why: i18n.t(`emailChannel.reasons.${why}`) });
    });
  return i18n.t('emailChannel.failed', { details: parts.join(' ') });
}
