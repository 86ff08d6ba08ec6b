/** Plan options (feature flags) of §3 and §6, named as DECISIONS.md fixes them. */
export const PLAN_OPTIONS = [
  'OPTION_ROUTING',
  'OPTION_EXPIRING',
  'OPTION_QUALITY_ASSESSMENT',
  'OPTION_AUTO_REPLY',
  'OPTION_API',
  'OPTION_CHAT_BOT',
  'OPTION_PROFILE_SESSION_HISTORY',
  'OPTION_ONLINE_MONITORING',
  'OPTION_PROFILE',
  'OPTION_TEMPLATE',
  'OPTION_CATEGORY',
  'OPTION_COMMENT',
  'OPTION_EXTENDED_SEARCH',
  'OPTION_PROFILE_STATUS',
  'OPTION_STATISTIC',
  /** Mailings and replies to mailings (issue 33; not among §3's options, see DECISIONS.md "Mailings"). */
  'OPTION_MAILING',
] as const;
export type PlanOption = (typeof PLAN_OPTIONS)[number];
