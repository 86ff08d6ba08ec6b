import type { DocumentKind, PlanOption } from '@smartconnect/contracts';
import { maybe, one, type Queryable, setList } from '../../db/index.ts';

export type PlanRow = {
  id: string;
  name: string;
  price: string;
  operator_licences: number;
  accounts_max: number | null;
  options: PlanOption[];
  organisations: number;
};

const planSelect = `select p.id, p.name, p.price, p.operator_licences, p.accounts_max, p.options,
  (select count(*)::int from organisations o where o.plan_id = p.id) as organisations from plans p`;

export const listPlans = (q: Queryable) => q.query<PlanRow>(`${planSelect} order by p.price, p.name`);
export const findPlan = (q: Queryable, id: string) =>
  maybe<PlanRow>(q, `${planSelect} where p.id = $1`, [id]);
export const planNameTaken = async (q: Queryable, name: string, exceptId?: string) =>
  (
    await q.query('select 1 from plans where lower(name) = lower($1) and id is distinct from $2', [
      name,
      exceptId ?? null,
    ])
  ).length > 0;

export type PlanInput = {
  name: string;
  price: number;
  operatorLicences: number;
  accountsMax: number | null;
  options: PlanOption[];
};
export async function insertPlan(q: Queryable, p: PlanInput): Promise<string> {
  const row = await one<{ id: string }>(
    q,
    `insert into plans (name, price, operator_licences, accounts_max, options) values ($1, $2, $3, $4, $5) returning id`,
    [p.name, p.price, p.operatorLicences, p.accountsMax, p.options],
  );
  return row.id;
}
const planColumns = {
  name: 'name',
  price: 'price',
  operatorLicences: 'operator_licences',
  accountsMax: 'accounts_max',
  options: 'options',
} as const;
export async function updatePlan(q: Queryable, id: string, patch: Partial<PlanInput>) {
  const params: unknown[] = [id];
  const sets = setList(planColumns, patch, params);
  if (sets) await q.query(`update plans set ${sets}, updated_at = now() where id = $1`, params);
}
/** Organisations on a plan take its changed licences and options. */
export const reapplyPlan = (q: Queryable, planId: string) =>
  q.query(
    `update organisations o set options = p.options, operator_licences = p.operator_licences, tariff_name = p.name,
            updated_at = now()
       from plans p where p.id = $1 and o.plan_id = p.id`,
    [planId],
  );

export type BillingRow = {
  id: string;
  name: string;
  login: string;
  status: 'active' | 'deactivated';
  is_platform: boolean;
  balance: string;
  billing_mode: 'prepaid' | 'postpaid';
  paid_until: string | null;
  plan_id: string | null;
};
/** The organisation's billing state, locked for the transaction when `lock`. */
export const billingOf = (q: Queryable, orgId: string, lock = false) =>
  maybe<BillingRow>(
    q,
    `select id, name, login, status, is_platform, balance, billing_mode, to_char(paid_until, 'YYYY-MM-DD') as paid_until, plan_id
       from organisations where id = $1 ${lock ? 'for update' : ''}`,
    [orgId],
  );

export const applyPlan = (q: Queryable, orgId: string, plan: PlanRow) =>
  q.query(
    `update organisations set plan_id = $2, tariff_name = $3, options = $4, operator_licences = $5, updated_at = now()
      where id = $1`,
    [orgId, plan.id, plan.name, plan.options, plan.operator_licences],
  );

export const addBalance = (q: Queryable, orgId: string, amount: number) =>
  q.query('update organisations set balance = balance + $2, updated_at = now() where id = $1', [
    orgId,
    amount,
  ]);

export const setPaidUntil = (q: Queryable, orgId: string, day: string) =>
  q.query('update organisations set paid_until = $2 where id = $1', [orgId, day]);

export const countAccounts = async (q: Queryable, orgId: string) =>
  (await one<{ n: number }>(q, 'select count(*)::int as n from users where organisation_id = $1', [orgId])).n;

export type PaymentRow = {
  id: string;
  organisation_id: string;
  kind: 'top_up' | 'charge' | 'adjustment';
  status: 'pending' | 'succeeded' | 'canceled';
  amount: string;
  currency: string;
  notes: string;
  provider_payment_id: string | null;
  confirmation_url: string | null;
  created_at: Date;
};
const paymentCols = `id, organisation_id, kind, status, amount, currency, notes, provider_payment_id, confirmation_url, created_at`;

export async function insertPayment(
  q: Queryable,
  p: {
    organisationId: string;
    kind: PaymentRow['kind'];
    status: PaymentRow['status'];
    amount: number;
    notes: string;
    idempotenceKey?: string;
    chargeDay?: string;
  },
): Promise<string | null> {
  const row = await maybe<{ id: string }>(
    q,
    `insert into payments (organisation_id, kind, status, amount, notes, idempotence_key, charge_day, settled_at)
     values ($1, $2, $3, $4, $5, $6, $7, case when $3 = 'pending' then null else now() end)
     on conflict do nothing returning id`,
    [p.organisationId, p.kind, p.status, p.amount, p.notes, p.idempotenceKey ?? null, p.chargeDay ?? null],
  );
  return row?.id ?? null;
}
export const setProviderPayment = (q: Queryable, id: string, providerId: string, url: string | null) =>
  q.query('update payments set provider_payment_id = $2, confirmation_url = $3 where id = $1', [
    id,
    providerId,
    url,
  ]);
export const paymentByProviderId = (q: Queryable, providerId: string) =>
  maybe<PaymentRow>(q, `select ${paymentCols} from payments where provider_payment_id = $1`, [providerId]);
export const findPayment = (q: Queryable, orgId: string, id: string) =>
  maybe<PaymentRow>(q, `select ${paymentCols} from payments where organisation_id = $1 and id = $2`, [
    orgId,
    id,
  ]);
/** Moves a pending payment to its final status; true only for the one call that moved it (credit exactly once). */
export const settle = async (q: Queryable, id: string, status: 'succeeded' | 'canceled') =>
  (
    await q.query(
      `update payments set status = $2, settled_at = now() where id = $1 and status = 'pending' returning id`,
      [id, status],
    )
  ).length === 1;
export const listPayments = (q: Queryable, orgId: string) =>
  q.query<PaymentRow>(
    `select ${paymentCols} from payments where organisation_id = $1 order by created_at desc, id desc limit 500`,
    [orgId],
  );
export const pendingTopUps = async (q: Queryable, orgId: string) =>
  (
    await one<{ n: number }>(
      q,
      `select count(*)::int as n from payments where organisation_id = $1 and kind = 'top_up' and status = 'pending'`,
      [orgId],
    )
  ).n;

export type DocumentRow = {
  id: string;
  organisation_id: string;
  payment_id: string | null;
  kind: DocumentKind;
  number: string;
  sum: string;
  vat: string;
  paid: boolean;
  release_date: string;
};
const docCols = `id, organisation_id, payment_id, kind, number, sum, vat, paid, to_char(release_date, 'YYYY-MM-DD') as release_date`;
const PREFIX: Record<DocumentKind, string> = { act: 'ACT', invoice: 'INV', factura: 'SF' };
export async function insertDocument(
  q: Queryable,
  d: {
    organisationId: string;
    paymentId: string;
    kind: DocumentKind;
    sum: number;
    vat: number;
    paid: boolean;
    day: string;
  },
) {
  await q.query(
    `insert into billing_documents (organisation_id, payment_id, kind, number, sum, vat, paid, release_date)
     values ($1, $2, $3, $4 || '-' || lpad(nextval('billing_document_numbers')::text, 6, '0'), $5, $6, $7, $8)
     on conflict (payment_id, kind) do nothing`,
    [d.organisationId, d.paymentId, d.kind, PREFIX[d.kind], d.sum, d.vat, d.paid, d.day],
  );
}
export const markDocumentsPaid = (q: Queryable, paymentId: string) =>
  q.query('update billing_documents set paid = true where payment_id = $1', [paymentId]);
export const listDocuments = (q: Queryable, orgId: string) =>
  q.query<DocumentRow>(
    `select ${docCols} from billing_documents where organisation_id = $1 order by created_at desc, number desc limit 500`,
    [orgId],
  );
export const findDocument = (q: Queryable, orgId: string, id: string) =>
  maybe<DocumentRow>(q, `select ${docCols} from billing_documents where organisation_id = $1 and id = $2`, [
    orgId,
    id,
  ]);

/** Organisations a day's charge is due for: on a plan, active, the day not covered by `paid_until`, not yet charged. */
export const dueForCharge = (q: Queryable, day: string, limit: number) =>
  q.query<{ id: string; price: string; plan_name: string }>(
    `select o.id, p.price, p.name as plan_name from organisations o join plans p on p.id = o.plan_id
      where o.status = 'active' and not o.is_platform and o.first_tariff_day <= $1::date
        and (o.paid_until is null or o.paid_until < $1::date)
        and not exists (select 1 from payments c where c.organisation_id = o.id and c.kind = 'charge' and c.charge_day = $1::date)
      order by o.id limit $2`,
    [day, limit],
  );
