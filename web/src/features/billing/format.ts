/** Roubles in the interface language, e.g. "1 234,50 ₽" or "RUB 1,234.50". */
export const formatMoney = (value: number, language: string, currency = 'RUB') =>
  new Intl.NumberFormat(language, { style: 'currency', currency }).format(value);

/** A calendar day (YYYY-MM-DD) in the interface language, read as the same day everywhere. */
export const formatDate = (day: string, language: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(language, { timeZone: 'UTC', dateStyle: 'medium' });
