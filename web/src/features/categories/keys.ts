/** Query keys of request categories: a prefix for invalidation, the tree (per team) and one category. */
export const categoryKeys = {
  all: ['categories'] as const,
  tree: (teamId?: string) => ['categories', 'tree', teamId ?? null] as const,
  one: (id: string) => ['categories', 'one', id] as const,
};
