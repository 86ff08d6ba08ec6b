/** Query keys of billing: organisations, plans and the finance screens (`finance` is also their prefix). */
export const billingKeys = {
  organisations: ['organisations'] as const,
  plans: ['plans'] as const,
  finance: ['finance'] as const,
  financePlans: ['finance', 'plans'] as const,
  payments: ['finance', 'payments'] as const,
  documents: ['finance', 'documents'] as const,
  demoPayment: (id: string) => ['finance', 'demo-payment', id] as const,
  returned: (payment: string | null) => ['finance', 'returned', payment] as const,
};
