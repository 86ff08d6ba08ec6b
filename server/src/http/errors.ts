import { ERRORS, type ErrorBody, type ErrorCode } from '@smartconnect/contracts';
import type { ZodError } from 'zod';

/** The one error type of the server: a §8 code, optional field messages and details for the UI. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly fields?: Record<string, string>,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
  }
  get status(): number {
    return ERRORS[this.code].status;
  }
  body(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: ERRORS[this.code].message };
    if (this.fields) error.fields = this.fields;
    if (this.details) error.details = this.details;
    return { code: this.code, entity: null, error };
  }
}

/** First message per field of a zod failure, keyed by the field's path. */
export function fieldErrors(err: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function validationError(err: ZodError): AppError {
  return new AppError('validationException', fieldErrors(err));
}
