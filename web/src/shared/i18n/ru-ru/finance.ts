import type { Resources } from '../en-gb.ts';

export const finance: Resources['finance'] = {
  balance: 'Баланс',
  payments: 'Платежи',
  billing: 'Счета',
  demoPayment: 'Демо-оплата',
};
