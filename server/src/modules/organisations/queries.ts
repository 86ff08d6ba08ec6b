import type { ModifyDenial, PlanOption } from '@smartconnect/contracts';
import { maybe, one, type Queryable, setList } from '../../db/index.ts';
import { insertBuiltInRoles } from '../roles/built-in.ts';
import { createDefaultRule } from '../routing-rules/service.ts';

export type NewOrganisation = {
  login: string;
  name: string;
  adminEmail: string;
  options: PlanOption[];
  language?: 'eng' | 'rus';
  isPlatform?: boolean;
  instance?: string | null;
  /** The last day the tariff is paid (or on trial); null: no end. */
  paidUntil?: string | null;
  firstTariffDay?: string;
  /** The seeded Demo organisation only: top-ups go to the demo payment page while no shop is configured. */
  demoPaymentPage?: boolean;
};

/** Creates an organisation with its three built-in roles; returns the ids of both. */
export async function insertOrganisation(q: Queryable, org: NewOrganisation) {
  const { id } = await one<{ id: string }>(
    q,
    `insert into organisations (login, name, admin_email, options, language, is_platform, instance, paid_until, first_tariff_day,
                                demo_payment_page)
     values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9::date, current_date), $10) returning id`,
    [
      org.login,
      org.name,
      org.adminEmail,
      org.options,
      org.language ?? 'eng',
      org.isPlatform ?? false,
      org.instance ?? null,
      org.paidUntil ?? null,
      org.firstTariffDay ?? null,
      org.demoPaymentPage ?? false,
    ],
  );
  const roles = await insertBuiltInRoles(q, id, { platform: org.isPlatform ?? false });
  // Every organisation routes by its default rule (lowest priority, to the channel's team) from the start.
  await createDefaultRule(q, id);
  return { id, roles };
}

export async function countOrganisations(q: Queryable): Promise<number> {
  const row = await one<{ n: number }>(q, 'select count(*)::int as n from organisations');
  return row.n;
}

export type OrganisationRow = {
  id: string;
  login: string;
  name: string;
  language: 'eng' | 'rus';
  status: 'active' | 'deactivated';
  tariff_name: string;
  options: PlanOption[];
  operator_licences: number;
  online_operators: number;
  modify_denied: ModifyDenial[];
  time_zone: string;
  admin_email: string;
  instance: string | null;
  plan_id: string | null;
  first_tariff_day: string;
  paid_until: string | null;
  balance: string;
  billing_mode: 'prepaid' | 'postpaid';
  suspended: boolean;
  updated_at: Date;
  created_at: Date;
};

// Online operators: users receiving chats (AUTHORITY_CHAT_DISTRIBUTION) who are In work, as the licence check counts them.
const select = `
  select o.id, o.login, o.name, o.language, o.status, o.tariff_name, o.options, o.operator_licences, o.modify_denied, o.time_zone, o.created_at,
         o.admin_email, o.instance, o.plan_id, to_char(o.first_tariff_day, 'YYYY-MM-DD') as first_tariff_day,
         to_char(o.paid_until, 'YYYY-MM-DD') as paid_until, o.balance, o.billing_mode, o.updated_at,
         o.suspended_at is not null as suspended,
         (select count(*)::int from users u join roles r on r.id = u.role_id
           where u.organisation_id = o.id and u.presence = 'online'
             and 'AUTHORITY_CHAT_DISTRIBUTION' = any(r.rights)) as online_operators
    from organisations o`;

/** Customer organisations (the platform's own is not one), or one of them when `id` is given. */
export const listOrganisations = (q: Queryable) =>
  q.query<OrganisationRow>(`${select} where not o.is_platform order by o.name, o.id`);

export const findOrganisation = (q: Queryable, id: string, withPlatform = false) =>
  maybe<OrganisationRow>(q, `${select} where o.id = $1 and ($2 or not o.is_platform)`, [id, withPlatform]);

const columns = {
  name: 'name',
  language: 'language',
  status: 'status',
  options: 'options',
  operatorLicences: 'operator_licences',
  modifyDenied: 'modify_denied',
  timeZone: 'time_zone',
  login: 'login',
  adminEmail: 'admin_email',
  instance: 'instance',
  firstTariffDay: 'first_tariff_day',
  paidUntil: 'paid_until',
  balance: 'balance',
  billingMode: 'billing_mode',
} as const;
export type OrganisationPatch = Partial<Record<keyof typeof columns, unknown>>;

export async function updateOrganisation(q: Queryable, id: string, patch: OrganisationPatch) {
  const params: unknown[] = [id];
  const sets = setList(columns, patch, params);
  if (!sets) return;
  await q.query(
    `update organisations set ${sets}, updated_at = now() where id = $1 and not is_platform`,
    params,
  );
}

export const loginTaken = async (q: Queryable, login: string, exceptId?: string) =>
  (
    await q.query('select 1 from organisations where login = $1 and id is distinct from $2', [
      login,
      exceptId ?? null,
    ])
  ).length > 0;

/**
 * Adds `days` to the paid days (counted from yesterday when they already ran out); only an active customer
 * organisation whose tariff has an end can be extended. Returns false when it cannot.
 */
export async function extendPaidUntil(
  q: Queryable,
  id: string,
  days: number,
  today: string,
): Promise<boolean> {
  const rows = await q.query(
    `update organisations set paid_until = greatest(paid_until, $3::date - 1) + $2::int, updated_at = now()
      where id = $1 and not is_platform and status = 'active' and paid_until is not null returning id`,
    [id, days, today],
  );
  return rows.length === 1;
}

/** What the first-run checklist reads (one query, scoped to the organisation). */
export const firstRun = (q: Queryable, orgId: string) =>
  one<{
    chats: boolean;
    channels: boolean;
    users: number;
    widget_chats: boolean;
    widget_channel_id: string | null;
  }>(
    q,
    `select exists (select 1 from chats where organisation_id = $1) as chats,
            exists (select 1 from channels where organisation_id = $1 and deleted_at is null) as channels,
            (select count(*)::int from users where organisation_id = $1) as users,
            exists (select 1 from chats c join channels ch on ch.id = c.channel_id
                     where c.organisation_id = $1 and ch.type = 'site_chat') as widget_chats,
            (select id from channels where organisation_id = $1 and type = 'site_chat' and deleted_at is null
                and status = 'active' order by created_at limit 1) as widget_channel_id`,
    [orgId],
  );

/** Organisations on a plan take its changed licences and options. */
export const reapplyPlan = (q: Queryable, planId: string) =>
  q.query(
    `update organisations o set options = p.options, operator_licences = p.operator_licences, tariff_name = p.name,
            updated_at = now()
       from plans p where p.id = $1 and o.plan_id = p.id`,
    [planId],
  );

/** The organisation takes a plan: its name, options and licences. */
export const applyPlan = (
  q: Queryable,
  orgId: string,
  plan: { id: string; name: string; options: string[]; operator_licences: number },
) =>
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

export const setSuspended = (q: Queryable, orgId: string, at: Date | null) =>
  q.query('update organisations set suspended_at = $2, updated_at = now() where id = $1', [orgId, at]);
