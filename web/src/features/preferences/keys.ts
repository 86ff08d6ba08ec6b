/** Query keys of the organisation's settings: the organisation itself (also a prefix) and its first-run state. */
export const organisationKeys = {
  all: ['organisation'] as const,
  firstRun: ['organisation', 'first-run'] as const,
};
