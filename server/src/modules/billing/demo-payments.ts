import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { maybe, one, type Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import type { PaymentRequest, ProviderPayment } from './yookassa.ts';

/**
 * The built-in demo payment page (PAYMENT_PROVIDER=demo): a payment provider inside the installation, for trying the
 * finance path where no YooKassa shop is configured. It keeps its payments as a provider would (demo_payments); its
 * hosted page is /admin/finance/demo-payment/{id}, where the organisation's finance user confirms or cancels. The
 * outcome settles the top-up through the same path as a provider's notification. No money moves.
 */
type DemoRow = {
  id: string;
  organisation_id: string;
  amount: string;
  currency: string;
  description: string;
  status: ProviderPayment['status'];
  return_url: string;
};
const cols = 'id, organisation_id, amount, currency, description, status, return_url';

const present = (app: AppContext, r: DemoRow): ProviderPayment => ({
  id: r.id,
  status: r.status,
  paid: r.status === 'succeeded',
  amount: { value: Number(r.amount).toFixed(2), currency: r.currency },
  confirmation: {
    type: 'redirect',
    confirmation_url: `${app.config.publicUrl}/admin/finance/demo-payment/${r.id}`,
  },
});

/** Creates the payment; the same idempotence key gives back the same one. */
export async function createDemoPayment(app: AppContext, input: PaymentRequest): Promise<ProviderPayment> {
  await app.db.query(
    `insert into demo_payments (organisation_id, idempotence_key, amount, currency, description, return_url)
     values ($1, $2, $3, $4, $5, $6) on conflict (idempotence_key) do nothing`,
    [
      input.organisationId,
      input.idempotenceKey,
      input.amount,
      input.currency,
      input.description,
      input.returnUrl,
    ],
  );
  const row = await one<DemoRow>(app.db, `select ${cols} from demo_payments where idempotence_key = $1`, [
    input.idempotenceKey,
  ]);
  return present(app, row);
}

export async function fetchDemoPayment(app: AppContext, id: string): Promise<ProviderPayment> {
  const row = await byId(app.db, id);
  if (!row) throw new AppError('paymentNotFoundException');
  return present(app, row);
}

/** A provider id of another provider (after a switch) is no uuid: no such demo payment, not a database error. */
const byId = (q: Queryable, id: string, orgId?: string) =>
  z.uuid().safeParse(id).success
    ? maybe<DemoRow>(
        q,
        `select ${cols} from demo_payments where id = $1 ${orgId ? 'and organisation_id = $2' : ''}`,
        orgId ? [id, orgId] : [id],
      )
    : Promise.resolve(undefined);

/** The page's view of a payment of the caller's organisation. */
export async function demoPaymentOf(app: AppContext, orgId: string, id: string) {
  const row = await byId(app.db, id, orgId);
  if (!row) throw new AppError('paymentNotFoundException');
  return {
    id: row.id,
    amount: Number(row.amount),
    currency: row.currency,
    description: row.description,
    status: row.status,
    returnUrl: row.return_url,
  };
}

/**
 * The payer's answer on the page: a pending payment of the organisation moves to succeeded or canceled, once (a
 * second answer changes nothing). The caller then settles the top-up, as a provider's notification would.
 */
export const markDemoPayment = (
  app: AppContext,
  orgId: string,
  id: string,
  outcome: 'succeeded' | 'canceled',
) =>
  app.db.query(
    `update demo_payments set status = $3 where id = $1 and organisation_id = $2 and status = 'pending'`,
    [id, orgId, outcome],
  );
