import type { ErrorCode } from '@smartconnect/contracts';

/**
 * A failed call: the HTTP status, the §8 code, for validation errors the spec's message per field, and the
 * error's details (the missing plan option of optionUnavailableException, for one).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'networkError',
    readonly fields?: Record<string, string>,
    readonly details?: Record<string, unknown>,
    /** An identity call of §7 (a 500 there is ignored silently); set by the API client. */
    public identity = false,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
