/** Query keys of roles and the rights they are made of. */
export const roleKeys = {
  all: ['roles'] as const,
  rights: ['rights'] as const,
};
