/** The users feature's React Query keys: a prefix for invalidation, and one factory per query. */
export const userKeys = {
  all: ['users'] as const,
  /** A filtered list; the pickers ask for the first 500 with `limit`. */
  list: (f: { search: string; team: string | null; limit?: number }) => ['users', f] as const,
  /** The first 500 users of the organisation (the client profiles' manager picker). */
  first500: ['users', 'all'] as const,
  one: (id: string | undefined) => ['users', id] as const,
};
