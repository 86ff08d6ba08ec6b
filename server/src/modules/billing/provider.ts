import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { createDemoPayment, fetchDemoPayment } from './demo-payments.ts';
import { createPayment, fetchPayment, type PaymentRequest, type ProviderPayment, shop } from './yookassa.ts';

/** A payment provider as top-ups use it: create a payment with a hosted page, and fetch it back by its id. */
export type PaymentProvider = {
  create(app: AppContext, input: PaymentRequest): Promise<ProviderPayment>;
  fetch(app: AppContext, id: string): Promise<ProviderPayment>;
};

const yookassa: PaymentProvider = { create: createPayment, fetch: fetchPayment };
const demo: PaymentProvider = { create: createDemoPayment, fetch: fetchDemoPayment };

/** PAYMENT_PROVIDER, or unset: YooKassa when its shop is configured, else the demo page. */
export function providerName(app: AppContext): 'yookassa' | 'demo' | 'none' {
  const env = app.config.env;
  return (
    app.config.paymentProvider ?? (env.YOOKASSA_SHOP_ID && env.YOOKASSA_SECRET_KEY ? 'yookassa' : 'demo')
  );
}

/** The installation's provider; none: §8 'billing account not registered'. */
export function paymentProvider(app: AppContext): PaymentProvider {
  switch (providerName(app)) {
    case 'yookassa':
      shop(app);
      return yookassa;
    case 'demo':
      return demo;
    default:
      throw new AppError('billingAccountNotRegisteredException');
  }
}
