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
  tariff_name: string;
  suspended_at: Date | null;
  language: 'eng' | 'rus';
};
/** Whether the organisation is the seeded Demo one, whose top-ups may go to the demo page by default. */
export const hasDemoPaymentPage = async (q: Queryable, orgId: string) =>
  (
    await maybe<{ demo_payment_page: boolean }>(
      q,
      'select demo_payment_page from organisations where id = $1',
      [orgId],
    )
  )?.demo_payment_page === true;
/** The organisation's billing state, locked for the transaction when `lock`. */
export const billingOf = (q: Queryable, orgId: string, lock = false) =>
  maybe<BillingRow>(
    q,
    `select id, name, login, status, is_platform, balance, billing_mode, to_char(paid_until, 'YYYY-MM-DD') as paid_until, plan_id,
            tariff_name, suspended_at, language
       from organisations where id = $1 ${lock ? 'for update' : ''}`,
    [orgId],
  );

export const teamIdsOf = async (q: Queryable, orgId: string) =>
  (await q.query<{ id: string }>('select id from teams where organisation_id = $1', [orgId])).map(
    (t) => t.id,
  );

/** Where the organisation's paid service stands on `today` (contracts' billingStateDto). */
export const billingState = async (q: Queryable, orgId: string, today: string) =>
  (await maybe<{ serviceUntil: string | null; suspended: boolean }>(
    q,
    `select o.suspended_at is not null as suspended,
            case when o.billing_mode = 'postpaid' or o.paid_until is null then null
                 when n.days > 0 then to_char(greatest(o.paid_until, $2::date - 1) + n.days, 'YYYY-MM-DD')
                 else to_char(o.paid_until, 'YYYY-MM-DD') end as "serviceUntil"
       from organisations o left join plans p on p.id = o.plan_id
       cross join lateral (select case when p.price > 0 and o.balance > 0
                                        then floor(o.balance / round(p.price / 30, 2))::int else 0 end as days) n
      where o.id = $1`,
    [orgId, today],
  )) ?? { serviceUntil: null, suspended: false };

/** The day's charge row of an organisation (succeeded or cancelled), if any. */
export const chargeOfDay = (q: Queryable, orgId: string, day: string) =>
  maybe<{ id: string; status: PaymentRow['status'] }>(
    q,
    `select id, status from payments where organisation_id = $1 and kind = 'charge' and charge_day = $2::date`,
    [orgId, day],
  );
/** A cancelled day's charge taken after all (the balance was topped up the same day). */
export const chargeSucceeded = (q: Queryable, id: string, amount: number, notes: string) =>
  q.query(
    `update payments set status = 'succeeded', amount = $2, notes = $3, settled_at = now() where id = $1`,
    [id, amount, notes],
  );

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
  /** A monthly act's month (YYYY-MM), else null. */
  period: string | null;
};
const docCols = `id, organisation_id, payment_id, kind, number, sum, vat, paid, to_char(release_date, 'YYYY-MM-DD') as release_date,
  to_char(period, 'YYYY-MM') as period`;
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

/**
 * Organisations a day's charge (or a suspension) is due for: active customers whose paid days do not cover the day,
 * on a plan and not yet tried that day, or with no plan, paid days that ran out and not yet suspended.
 */
export const dueForCharge = (q: Queryable, day: string, limit: number) =>
  q.query<{ id: string }>(
    `select o.id from organisations o
      where o.status = 'active' and not o.is_platform and o.first_tariff_day <= $1::date
        and (o.paid_until is null or o.paid_until < $1::date)
        and case when o.plan_id is null then o.paid_until is not null and o.suspended_at is null
                 and o.billing_mode = 'prepaid'
            else not exists (select 1 from payments c where c.organisation_id = o.id and c.kind = 'charge'
                                and c.charge_day = $1::date) end
      order by o.id limit $2`,
    [day, limit],
  );

/**
 * Issues the monthly acts that are due at `now`: for each organisation and calendar month before the current one in
 * the organisation's time zone, one act summing the month's succeeded daily charges (by the day charged for), dated
 * the month's last day. Exactly once: a month that has its act is skipped and the unique (organisation, kind,
 * period) index drops a second instance's insert. Only the last three months are looked at (a bounded read every
 * minute; an installation down longer than that issues the older months' acts no more). Returns how many acts were
 * issued.
 */
export async function issueMonthlyActs(q: Queryable, now: Date, vatRate: number, limit: number) {
  const rows = await q.query<{ id: string }>(
    `with due as (
       select c.organisation_id, date_trunc('month', c.charge_day)::date as period, sum(c.amount) as total
         from payments c join organisations o on o.id = c.organisation_id
        where c.kind = 'charge' and c.status = 'succeeded'
          and c.charge_day < date_trunc('month', ($1::timestamptz at time zone o.time_zone))::date
          and c.charge_day >= (date_trunc('month', $1::timestamptz at time zone 'UTC') - interval '3 months')::date
          and not exists (select 1 from billing_documents d where d.organisation_id = c.organisation_id
                           and d.kind = 'act' and d.period = date_trunc('month', c.charge_day)::date)
        group by c.organisation_id, date_trunc('month', c.charge_day)
        order by 1, 2 limit $3)
     insert into billing_documents (organisation_id, kind, number, sum, vat, paid, release_date, period)
     select organisation_id, 'act', 'ACT-' || lpad(nextval('billing_document_numbers')::text, 6, '0'), total,
            round(total * $2 / (100 + $2), 2), true, (period + interval '1 month' - interval '1 day')::date, period
       from due
     on conflict (organisation_id, kind, period) where period is not null do nothing
     returning id`,
    [now.toISOString(), vatRate, limit],
  );
  return rows.length;
}
