import {
  CATEGORY_PATH_SEPARATOR,
  type CategoryDto,
  type CategoryInput,
  type Page,
} from '@smartconnect/contracts';
import { useQuery } from '@tanstack/react-query';
import { del, get, patch, post, qs } from '../../shared/api/client.ts';
import { categoryKeys } from './keys.ts';

/** The request category tree (top categories with their themes and subthemes); with a team, what it may use. */
export function useCategoryTree(enabled: boolean, teamId?: string) {
  return useQuery({
    queryKey: categoryKeys.tree(teamId),
    queryFn: async () => (await get<Page<CategoryDto>>(`/api/categories${qs({ teamId })}`)).items,
    enabled,
  });
}

export function useCategory(id: string | undefined) {
  return useQuery({
    queryKey: categoryKeys.one(id ?? ''),
    queryFn: () => get<CategoryDto>(`/api/categories/${id}`),
    enabled: !!id,
    meta: { silent: true },
    retry: false,
  });
}

/** Every node of a tree, each parent before its children (the tree's own order). */
export function flatten(nodes: CategoryDto[]): CategoryDto[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** 'Category › Theme › Subtheme'. */
export const pathText = (path: string[]) => path.join(CATEGORY_PATH_SEPARATOR);

export const createCategory = (body: CategoryInput) => post<CategoryDto>('/api/categories', body);
export const updateCategory = (id: string, body: { name?: string; teamIds?: string[] }) =>
  patch<CategoryDto>(`/api/categories/${id}`, body);
export const deleteCategory = (id: string) => del<unknown>(`/api/categories/${id}`);
