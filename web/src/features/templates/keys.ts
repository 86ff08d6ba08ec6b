/** Query keys of templates: the lists (a prefix), the template categories and the WhatsApp templates. */
export const templateKeys = {
  all: ['templates'] as const,
  list: (scope: 'all' | 'mine', search: string) => ['templates', scope, search] as const,
  categories: ['template-categories'] as const,
  whatsapp: ['whatsapp-templates'] as const,
};
