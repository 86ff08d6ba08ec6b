/** Query keys of the knowledge base: articles, categories and search, each with a prefix for invalidation. */
export const kbKeys = {
  articlesAll: ['kb-articles'] as const,
  articles: ['kb-articles', 'all'] as const,
  categories: ['kb-categories'] as const,
  searchAll: ['kb-search'] as const,
  search: (q: string) => ['kb-search', q] as const,
};
