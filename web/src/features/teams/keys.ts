/** The teams feature's React Query keys: a prefix for invalidation, and the list by search text. */
export const teamKeys = {
  all: ['teams'] as const,
  list: (search: string) => ['teams', search] as const,
};
