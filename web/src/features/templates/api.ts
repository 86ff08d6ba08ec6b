import type {
  OrganisationDto,
  Page,
  TemplateCategoryDto,
  TemplateDto,
  WhatsAppTemplateDto,
} from '@smartconnect/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { del, get, patch, post, qs } from '../../shared/api/client.ts';
import { organisationKeys } from '../preferences/keys.ts';
import { templateKeys } from './keys.ts';

export type CategoryInput = { name: string; teamIds: string[] };
export type TemplateInput = { text: string; categoryId: string };

/** `all`: every template of the organisation (the settings page); otherwise the caller's teams' (the composer). */
export function useTemplates(search: string, opts: { all?: boolean; enabled?: boolean } = {}) {
  return useQuery({
    queryKey: templateKeys.list(opts.all ? 'all' : 'mine', search),
    queryFn: async () =>
      (await get<Page<TemplateDto>>(`/api/templates${qs({ search, all: opts.all || undefined })}`)).items,
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}

export function useTemplateCategories() {
  return useQuery({
    queryKey: templateKeys.categories,
    queryFn: async () => (await get<Page<TemplateCategoryDto>>('/api/template-categories?all=true')).items,
  });
}

export function useWhatsAppTemplates() {
  return useQuery({
    queryKey: templateKeys.whatsapp,
    queryFn: async () => (await get<Page<WhatsAppTemplateDto>>('/api/whatsapp-templates')).items,
  });
}

/** The caller's organisation: whether template changes are denied (§6). */
export function useOrganisation() {
  return useQuery({
    queryKey: organisationKeys.all,
    queryFn: () => get<OrganisationDto>('/api/organisation'),
  });
}

export const createCategory = (body: CategoryInput) =>
  post<TemplateCategoryDto>('/api/template-categories', body);
export const updateCategory = (id: string, body: CategoryInput) =>
  patch<TemplateCategoryDto>(`/api/template-categories/${id}`, body);
export const deleteCategory = (id: string) => del<unknown>(`/api/template-categories/${id}`);
export const createTemplate = (body: TemplateInput) => post<TemplateDto>('/api/templates', body);
export const updateTemplate = (id: string, body: TemplateInput) =>
  patch<TemplateDto>(`/api/templates/${id}`, body);
export const deleteTemplate = (id: string) => del<unknown>(`/api/templates/${id}`);
