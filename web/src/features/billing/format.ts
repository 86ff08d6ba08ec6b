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
