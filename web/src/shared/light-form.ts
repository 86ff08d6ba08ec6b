import { type FormEvent, useRef, useState } from 'react';

type Values = Record<string, string>;
type Errors = Record<string, string>;

/** What `getInputProps` gives a text input: as the form library's controlled mode gives it. */
export type LightInputProps = {
  value: string;
  onChange: (event: { currentTarget: { value: string } }) => void;
  onBlur: () => void;
  error: string | undefined;
};

/**
 * A form of text fields for the login page, without the form library (~4.7 KB gzipped of a 150 KB page, issue 12):
 * the part of its `useForm` the page used, with the same behaviour: controlled values, a field checked when it
 * loses the focus (`validateInputOnBlur`), a field's message cleared when it changes, every field checked on
 * submit (the handler runs only when none fails), and `setErrors` for the server's messages (server-errors.ts).
 * A form with more than text fields uses the library (shared/form.ts).
 */
export function useLightForm<T extends Values>(options: {
  initialValues: T;
  validate: (values: T) => Errors;
}) {
  const [values, setValues] = useState(options.initialValues);
  const [errors, setErrorsState] = useState<Errors>({});
  const latest = useRef(values);
  latest.current = values;
  const validate = options.validate;

  const setErrors = (next: Record<string, unknown>) =>
    setErrorsState(
      Object.fromEntries(
        Object.entries(next)
          .filter(([, message]) => message)
          .map(([k, v]) => [k, String(v)]),
      ),
    );
  const setFieldError = (field: string, message: string | undefined) =>
    setErrorsState((now) => {
      const { [field]: _, ...rest } = now;
      return message ? { ...rest, [field]: message } : rest;
    });

  return {
    values,
    errors,
    setErrors,
    getInputProps: (field: keyof T & string): LightInputProps => ({
      value: values[field],
      onChange: (event) => {
        const value = event.currentTarget.value;
        setValues((now) => ({ ...now, [field]: value }));
        setFieldError(field, undefined);
      },
      onBlur: () => setFieldError(field, validate(latest.current)[field]),
      error: errors[field],
    }),
    onSubmit: (handler: (values: T) => void) => (event?: FormEvent) => {
      event?.preventDefault();
      const found = validate(latest.current);
      setErrors(found);
      if (!Object.values(found).some(Boolean)) handler(latest.current);
    },
  };
}
