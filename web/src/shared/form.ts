import type { UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { isApiError } from './api/errors.ts';
import { translateField } from './i18n/index.ts';
import { notifyError } from './notify.ts';

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

/**
 * Shows a failed submit: the server's `error.fields` under the fields (same messages as the
 * client-side check), otherwise a toast from the error code. Network failures and a rejected session
 * are handled globally.
 */
export function showServerErrors<T>(
  form: UseFormReturnType<T>,
  err: unknown,
  fieldMap: Record<string, string> = {},
): void {
  if (!isApiError(err)) return;
  if (err.code === 'networkError' || err.code === 'unauthorizedException') return;
  // §7: a 500 of an identity call is ignored silently; elsewhere it is the 'Unknown error' toast below.
  if (err.status >= 500 && err.identity) return;
  // `_` is the body as a whole (malformed JSON, for one): no field to put it under, so the code's toast.
  const fields = Object.entries(err.fields ?? {}).filter(([k]) => k !== '_');
  if (fields.length) {
    form.setErrors(Object.fromEntries(fields.map(([k, v]) => [fieldMap[k] ?? k, translateField(v) ?? ''])));
    return;
  }
  notifyError(err.code);
}
