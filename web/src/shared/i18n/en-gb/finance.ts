export const finance = {
  balance: 'Balance',
  payments: 'Payments',
  billing: 'Billing',
  demoPayment: 'Demo payment',
};
