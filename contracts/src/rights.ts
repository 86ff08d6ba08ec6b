/** The rights of §6, the built-in roles' rights per DECISIONS.md, and the §6 route guards. */
export const RIGHTS = [
  'AUTHORITY_ALL_STAT',
  'RIGHT_ACCOUNT_CONTROL',
  'AUTHORITY_TEAMS_UPDATE',
  'RIGHT_OBSERVER',
  'AUTHORITY_ALL_CHATS',
  'AUTHORITY_SERVICE_ACCOUNT',
  'AUTHORITY_TEAM_TEMPLATE',
  'AUTHORITY_ROLE_MODIFY',
  'AUTHORITY_CHAT_DISTRIBUTION',
  'AUTHORITY_PROFILE_UPDATE',
  'AUTHORITY_PROFILE_STATUS',
  'AUTHORITY_INTEGRATION',
  'AUTHORITY_CHAT_SESSION_CATEGORY',
  'AUTHORITY_FINANCE',
  /** Create, send, pause and cancel mailings (issue 33; not in §6, see DECISIONS.md "Mailings"). */
  'AUTHORITY_MAILING',
] as const;
export type Right = (typeof RIGHTS)[number];

export const BUILT_IN_ROLES = ['OPERATOR', 'SUPERVISOR', 'ADMINISTRATOR'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];

const operatorRights: Right[] = ['AUTHORITY_CHAT_DISTRIBUTION', 'AUTHORITY_PROFILE_UPDATE'];
const supervisorRights: Right[] = [
  ...operatorRights,
  'AUTHORITY_ALL_CHATS',
  'AUTHORITY_ALL_STAT',
  'AUTHORITY_TEAMS_UPDATE',
  'AUTHORITY_PROFILE_STATUS',
  'AUTHORITY_TEAM_TEMPLATE',
  'AUTHORITY_CHAT_SESSION_CATEGORY',
  'AUTHORITY_MAILING',
];

export const BUILT_IN_ROLE_RIGHTS: Record<BuiltInRole, Right[]> = {
  OPERATOR: operatorRights,
  SUPERVISOR: supervisorRights,
  ADMINISTRATOR: RIGHTS.filter((r) => r !== 'RIGHT_OBSERVER'),
};

export const BUILT_IN_ROLE_NAMES: Record<BuiltInRole, string> = {
  OPERATOR: 'Operator',
  SUPERVISOR: 'Supervisor',
  ADMINISTRATOR: 'Administrator',
};

/** Rights that a customer organisation's roles may hold (RIGHT_OBSERVER is platform staff only). */
export const ASSIGNABLE_RIGHTS: Right[] = RIGHTS.filter((r) => r !== 'RIGHT_OBSERVER');
