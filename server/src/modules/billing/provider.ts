import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { createDemoPayment, fetchDemoPayment } from './demo-payments.ts';
import { hasDemoPaymentPage } from './queries.ts';
import { createPayment, fetchPayment, type PaymentRequest, type ProviderPayment, shop } from './yookassa.ts';

/** A payment provider as top-ups use it: create a payment with a hosted page, and fetch it back by its id. */
export type PaymentProvider = {
  create(app: AppContext, input: PaymentRequest): Promise<ProviderPayment>;
  fetch(app: AppContext, id: string): Promise<ProviderPayment>;
};

const yookassa: PaymentProvider = { create: createPayment, fetch: fetchPayment };
const demo: PaymentProvider = { create: createDemoPayment, fetch: fetchDemoPayment };

/**
 * Who takes the organisation's top-ups: PAYMENT_PROVIDER when set (demo: the demo page for every organisation);
 * unset, YooKassa when its shop is configured, else the demo page for the seeded Demo organisation alone (its flag,
 * set by the first-start seed) and nobody for the rest, so an organisation from sign-up cannot credit itself.
 */
export async function providerName(app: AppContext, orgId: string): Promise<'yookassa' | 'demo' | 'none'> {
  const env = app.config.env;
  if (app.config.paymentProvider) return app.config.paymentProvider;
  if (env.YOOKASSA_SHOP_ID && env.YOOKASSA_SECRET_KEY) return 'yookassa';
  return (await hasDemoPaymentPage(app.db, orgId)) ? 'demo' : 'none';
}

/** The organisation's provider; none: §8 'billing account not registered'. */
export async function paymentProvider(app: AppContext, orgId: string): Promise<PaymentProvider> {
  switch (await providerName(app, orgId)) {
    case 'yookassa':
      shop(app);
      return yookassa;
    case 'demo':
      return demo;
    default:
      throw new AppError('billingAccountNotRegisteredException');
  }
}
