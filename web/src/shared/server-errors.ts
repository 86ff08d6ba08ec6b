import { isApiError } from './api/errors.ts';
import { translateField } from './i18n/index.ts';
import { notifyError } from './notify.ts';

/**
 * Shows a failed submit: the server's `error.fields` under the fields of a form (the form library's or
 * light-form.ts; same messages as the client-side check), otherwise a toast from the error code. Network failures
 * and a rejected session are handled globally.
 */
export function showServerErrors(
  form: { setErrors: (errors: Record<string, string>) => void },
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
