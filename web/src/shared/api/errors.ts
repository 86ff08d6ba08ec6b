import type { ErrorCode } from '@smartconnect/contracts';

/** A failed call: the HTTP status, the §8 code and, for validation errors, the spec's message per field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'networkError',
    readonly fields?: Record<string, string>,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
