// Before any parse by a form (shared/zod-csp.ts): the public pages' forms load zod through here.
import './zod-csp.ts';
import type { z } from 'zod';
import { translateField } from './i18n/index.ts';

/** Mantine form validation from a contracts zod schema: the spec's message under each field, translated. */
export function zodValidate<S extends z.ZodType>(schema: S, map?: (values: never) => unknown) {
  return (values: Record<string, unknown>): Record<string, string> => {
    const result = schema.safeParse(map ? map(values as never) : values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.length ? issue.path.join('.') : '_';
      if (!errors[path]) errors[path] = translateField(issue.message) ?? '';
    }
    return errors;
  };
}

// The login page takes it from server-errors.ts directly: it needs no zod.
export { showServerErrors } from './server-errors.ts';
