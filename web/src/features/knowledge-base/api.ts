import type { KbArticleDto, KbCategoryDto, Page } from '@smartconnect/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { del, get, patch, post, qs } from '../../shared/api/client.ts';
import { kbKeys } from './keys.ts';

export type KbCategoryInput = { name: string; teamIds: string[] };
export type KbArticleInput = {
  categoryId: string;
  title: string;
  body: string;
  teamIds: string[];
  public: boolean;
};

/** Every article of the organisation: the settings page (needs AUTHORITY_TEAM_TEMPLATE). */
export function useKbArticles() {
  return useQuery({
    queryKey: kbKeys.articles,
    queryFn: async () => (await get<Page<KbArticleDto>>('/api/kb/articles?all=true')).items,
  });
}

export function useKbCategories() {
  return useQuery({
    queryKey: kbKeys.categories,
    queryFn: async () => (await get<Page<KbCategoryDto>>('/api/kb/categories?all=true')).items,
  });
}

/** The articles the caller may read matching `q`, best first (the chat's side panel and the composer). */
export function useKbSearch(q: string) {
  return useQuery({
    queryKey: kbKeys.search(q),
    queryFn: async () => (await get<Page<KbArticleDto>>(`/api/kb/search${qs({ q })}`)).items,
    placeholderData: keepPreviousData,
    enabled: q.trim() !== '',
  });
}

/** The article's public page as an absolute address (what a client is sent). */
export const publicArticleUrl = (a: KbArticleDto) =>
  a.publicPath ? new URL(a.publicPath, window.location.origin).toString() : null;

export const createKbCategory = (body: KbCategoryInput) => post<KbCategoryDto>('/api/kb/categories', body);
export const updateKbCategory = (id: string, body: KbCategoryInput) =>
  patch<KbCategoryDto>(`/api/kb/categories/${id}`, body);
export const deleteKbCategory = (id: string) => del<unknown>(`/api/kb/categories/${id}`);
export const createKbArticle = (body: KbArticleInput) => post<KbArticleDto>('/api/kb/articles', body);
export const updateKbArticle = (id: string, body: KbArticleInput) =>
  patch<KbArticleDto>(`/api/kb/articles/${id}`, body);
export const deleteKbArticle = (id: string) => del<unknown>(`/api/kb/articles/${id}`);
