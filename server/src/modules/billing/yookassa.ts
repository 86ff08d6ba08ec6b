import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';

/**
 * A client of the YooKassa API v3 (https://yookassa.ru/developers/api): create a payment with an Idempotence-Key and
 * a redirect confirmation (the hosted payment page), and fetch a payment back by id. Basic auth with the shop id
 * and secret key. YOOKASSA_API_URL points tests at server/test/fakes/yookassa.ts.
 */
export type ProviderPayment = {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  confirmation?: { type: string; confirmation_url?: string };
  metadata?: Record<string, string>;
};

/** What a top-up asks of a payment provider (YooKassa, or the built-in demo page: provider.ts). */
export type PaymentRequest = {
  organisationId: string;
  amount: number;
  currency: string;
  returnUrl: string;
  description: string;
  idempotenceKey: string;
  paymentId: string;
};

type Shop = { baseUrl: string; shopId: string; secretKey: string };

/** The installation's shop at the provider; none: §8 'billing account not registered'. */
export function shop(app: AppContext): Shop {
  const env = app.config.env;
  const shopId = env.YOOKASSA_SHOP_ID;
  const secretKey = env.YOOKASSA_SECRET_KEY;
  if (!shopId || !secretKey) throw new AppError('billingAccountNotRegisteredException');
  const baseUrl = (env.YOOKASSA_API_URL || 'https://api.yookassa.ru').replace(/\/$/, '');
  return { baseUrl, shopId, secretKey };
}

async function call<T>(s: Shop, method: string, path: string, body?: unknown, key?: string): Promise<T> {
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${s.shopId}:${s.secretKey}`).toString('base64')}`,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['idempotence-key'] = key;
  let res: Response;
  try {
    res = await fetch(`${s.baseUrl}/v3${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new AppError('providerUnavailableException');
  }
  if (!res.ok) throw new AppError('providerUnavailableException');
  return (await res.json()) as T;
}

/** Creates a payment; the same `idempotenceKey` gives back the same payment (a retry never pays twice). */
export function createPayment(app: AppContext, input: PaymentRequest): Promise<ProviderPayment> {
  return call<ProviderPayment>(
    shop(app),
    'POST',
    '/payments',
    {
      amount: { value: input.amount.toFixed(2), currency: input.currency },
      capture: true,
      confirmation: { type: 'redirect', return_url: input.returnUrl },
      description: input.description.slice(0, 128),
      metadata: { paymentId: input.paymentId },
    },
    input.idempotenceKey,
  );
}

/** The payment as the provider knows it: the only source a notification's claim is trusted from. */
export function fetchPayment(app: AppContext, id: string): Promise<ProviderPayment> {
  return call<ProviderPayment>(shop(app), 'GET', `/payments/${encodeURIComponent(id)}`);
}
