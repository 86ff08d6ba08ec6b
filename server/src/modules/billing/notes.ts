/**
 * The notes of the payments the platform writes itself (§3 finance records), in the organisation's language
 * (organisations.language): the finance screens show them as written, like a bank statement.
 */
type Lang = 'eng' | 'rus';

export const topUpNote = (lang: Lang) => (lang === 'rus' ? 'Пополнение баланса' : 'Top-up');

/** A day's tariff charge: the plan and the day; `unpaid` when the prepaid balance did not cover it. */
export function chargeNote(lang: Lang, plan: string, day: string, unpaid = false): string {
  if (lang === 'rus') return `Тариф ${plan}, ${day}${unpaid ? ': недостаточно средств на балансе' : ''}`;
  return `Tariff ${plan}, ${day}${unpaid ? ': not enough balance' : ''}`;
}
