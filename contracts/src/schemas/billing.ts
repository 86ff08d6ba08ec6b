import { z } from 'zod';
import { LIMITS } from '../limits.ts';
import { FIELD_MESSAGES as M } from '../messages.ts';
import { PLAN_OPTIONS } from '../options.ts';
import { BILLING_MODES } from './organisations.ts';

/** Plans (tariffs, issue 19): a monthly price, operator licences, an account quota and the plan options of §3. */
export const PLAN_LIMITS = { nameMax: 64, priceMax: 10_000_000, licencesMax: 100_000 } as const;
export const CURRENCY = 'RUB';
/** VAT included in every billing document's sum (§2.6 'sum with VAT'). */
export const VAT_RATE = 20;

const price = z
  .number(M.priceIncorrect)
  .min(0, M.priceIncorrect)
  .max(PLAN_LIMITS.priceMax, M.priceIncorrect)
  .refine(
    (v) => Number.isInteger(Math.round(v * 100)) && Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
    M.priceIncorrect,
  );
const count = (max: number) =>
  z
    .number(M.quantityIncorrect)
    .int(M.quantityIncorrect)
    .min(0, M.quantityIncorrect)
    .max(max, M.quantityIncorrect);

export const planBodySchema = z.object({
  name: z.string(M.nameIncorrect).trim().min(1, M.nameIncorrect).max(PLAN_LIMITS.nameMax, M.nameIncorrect),
  /** Roubles a month; the daily charge is a thirtieth of it. */
  price,
  operatorLicences: count(PLAN_LIMITS.licencesMax),
  /** §8 'quota exceeded for login': at most this many user accounts; null: no quota. */
  accountsMax: count(PLAN_LIMITS.licencesMax).nullable().default(null),
  options: z
    .array(z.enum(PLAN_OPTIONS, M.valueIncorrect), M.valueIncorrect)
    .transform((o) => [...new Set(o)]),
});
export const planUpdateSchema = planBodySchema.partial();

export const planDto = z.object({
  id: z.uuid(),
  name: z.string(),
  price: z.number(),
  operatorLicences: z.number().int(),
  accountsMax: z.number().int().nullable(),
  options: z.array(z.enum(PLAN_OPTIONS)),
  /** Organisations on this plan now. */
  organisations: z.number().int(),
});
export type PlanDto = z.infer<typeof planDto>;

/** `POST /api/finance/top-up`: at least 500 (§5, §9). */
export const topUpSchema = z.object({
  amount: z
    .number(M.minTopUp)
    .min(LIMITS.minTopUp, M.minTopUp)
    .max(PLAN_LIMITS.priceMax, M.minTopUp)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, M.minTopUp),
});
export const topUpDto = z.object({
  paymentId: z.uuid(),
  /** The payment provider's hosted page: the browser goes there and comes back to the finance page. */
  confirmationUrl: z.string(),
});

/** A payment of the built-in demo payment page (PAYMENT_PROVIDER=demo) as its page shows it. */
export const demoPaymentDto = z.object({
  id: z.uuid(),
  amount: z.number(),
  currency: z.string(),
  description: z.string(),
  status: z.enum(['pending', 'succeeded', 'canceled']),
  /** Where the payer goes back to: the finance page, which then asks for the top-up's outcome. */
  returnUrl: z.string(),
});
export type DemoPaymentDto = z.infer<typeof demoPaymentDto>;

export const changePlanSchema = z.object({ planId: z.uuid(M.tariffRequired) });

export const PAYMENT_KINDS = ['top_up', 'charge', 'adjustment'] as const;
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'canceled'] as const;
/** §3 Finance records, transactions: transaction id, date, type, amount, currency, notes. */
export const paymentDto = z.object({
  id: z.uuid(),
  transactionId: z.string(),
  date: z.iso.datetime({ offset: true }),
  type: z.enum(PAYMENT_KINDS),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number(),
  currency: z.string(),
  notes: z.string(),
});
export type PaymentDto = z.infer<typeof paymentDto>;

export const DOCUMENT_KINDS = ['act', 'invoice', 'factura'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
/** §2.6 billing documents: id, number, sum with VAT, paid/not paid, release date, link. */
export const billingDocumentDto = z.object({
  id: z.uuid(),
  kind: z.enum(DOCUMENT_KINDS),
  number: z.string(),
  sum: z.number(),
  vat: z.number(),
  paid: z.boolean(),
  releaseDate: z.string(),
  /** A monthly act's month (YYYY-MM): it sums that month's daily tariff charges; null for top-up documents. */
  period: z.string().nullable(),
  /** The PDF (signed-in GET). */
  link: z.string(),
});
export type BillingDocumentDto = z.infer<typeof billingDocumentDto>;

/**
 * Where an organisation's paid service stands (issue 19): `serviceUntil` is the last day paid for, counting the
 * days a prepaid balance covers at the plan's daily charge (null: no end, e.g. postpaid); `suspended`: suspended for
 * non-payment (operators cannot take or answer chats).
 */
export const billingStateDto = z.object({
  serviceUntil: z.string().nullable(),
  suspended: z.boolean(),
});
export type BillingStateDto = z.infer<typeof billingStateDto>;

export const financeDto = z.object({
  balance: z.number(),
  currency: z.string(),
  billingMode: z.enum(BILLING_MODES),
  paidUntil: z.string().nullable(),
  plan: planDto.nullable(),
  /**
   * The organisation's tariff by name: the plan's, or for an organisation on no plan (the seeded Demo, those made
   * before plans) the tariff its own options and licences stand for (organisations.tariff_name); never charged.
   */
  tariffName: z.string(),
  /** What one day of the plan costs (a thirtieth of its monthly price). */
  dailyCharge: z.number(),
  /** The organisation's billing state (see billingStateDto). */
  state: billingStateDto,
});
export type FinanceDto = z.infer<typeof financeDto>;
