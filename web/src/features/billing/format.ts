/** Roubles in the interface language, e.g. "1 234,50 ₽" or "RUB 1,234.50". */
export const formatMoney = (value: number, language: string, currency = 'RUB') =>
  new Intl.NumberFormat(language, { style: 'currency', currency }).format(value);

/** A month (YYYY-MM) in the interface language, e.g. "January 2026" or "январь 2026 г.". */
export const formatMonth = (month: string, language: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString(language, {
    timeZone: 'UTC',
    month: 'long',
    year: 'numeric',
  });

/** A calendar day (YYYY-MM-DD) in the interface language, read as the same day everywhere. */
export const formatDate = (day: string, language: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(language, { timeZone: 'UTC', dateStyle: 'medium' });

/**
 * A payment's transaction id as a person reads it: the last 8 characters, upper case (the start of our time-ordered
 * ids is the same for payments made close together); the full id goes in the cell's title to copy.
 */
export const shortTransactionId = (id: string) => `…${id.replace(/-/g, '').slice(-8).toUpperCase()}`;

type Translate = (key: string, params?: Record<string, unknown>) => string;

// The notes the platform writes itself (server billing/notes.ts), in the organisation's language when written.
const TOP_UP_NOTES = new Set(['Top-up', 'Пополнение баланса']);
const CHARGE_NOTE = /^(?:Tariff|Тариф) (.+), (\d{4}-\d{2}-\d{2})(: .+)?$/;

/**
 * A payment's notes in the interface language: the platform's own notes (a top-up, a day's tariff charge) are
 * rewritten from their parts; notes a person wrote are shown as written.
 */
export function paymentNote(type: string, notes: string, t: Translate, language: string): string {
  if (type === 'top_up' && TOP_UP_NOTES.has(notes)) return t('billing.notesTopUp');
  const charge = type === 'charge' ? CHARGE_NOTE.exec(notes) : null;
  if (charge) {
    const text = t('billing.notesCharge', { plan: charge[1], day: formatDate(charge[2], language) });
    return charge[3] ? `${text}: ${t('billing.notesUnpaid')}` : text;
  }
  return notes;
}
