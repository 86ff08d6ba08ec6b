import {
  BUILT_IN_ROLE_NAMES,
  BUILT_IN_ROLE_RIGHTS,
  BUILT_IN_ROLES,
  type PlanOption,
} from '@smartconnect/contracts';
import { one, type Queryable } from '../../db/index.ts';

export type NewOrganisation = {
  login: string;
  name: string;
  adminEmail: string;
  options: PlanOption[];
  language?: 'eng' | 'rus';
  isPlatform?: boolean;
};

const ROLE_DESCRIPTIONS = {
  OPERATOR: 'Handles the flow of inquiries',
  SUPERVISOR: 'Controls the operator team and sees all inquiries',
  ADMINISTRATOR: 'Configures the platform',
} as const;

/** Creates an organisation with its three built-in roles; returns the ids of both. */
export async function insertOrganisation(q: Queryable, org: NewOrganisation) {
  const { id } = await one<{ id: string }>(
    q,
    `insert into organisations (login, name, admin_email, options, language, is_platform)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [org.login, org.name, org.adminEmail, org.options, org.language ?? 'eng', org.isPlatform ?? false],
  );
  const roles = {} as Record<(typeof BUILT_IN_ROLES)[number], string>;
  for (const builtIn of BUILT_IN_ROLES) {
    const rights = [...BUILT_IN_ROLE_RIGHTS[builtIn]];
    if (org.isPlatform && builtIn === 'ADMINISTRATOR') rights.push('RIGHT_OBSERVER');
    const role = await one<{ id: string }>(
      q,
      `insert into roles (organisation_id, name, description, rights, built_in) values ($1, $2, $3, $4, $5) returning id`,
      [id, BUILT_IN_ROLE_NAMES[builtIn], ROLE_DESCRIPTIONS[builtIn], rights, builtIn],
    );
    roles[builtIn] = role.id;
  }
  return { id, roles };
}

export async function countOrganisations(q: Queryable): Promise<number> {
  const row = await one<{ n: number }>(q, 'select count(*)::int as n from organisations');
  return row.n;
}
