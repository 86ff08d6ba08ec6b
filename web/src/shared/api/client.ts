import { ERROR_STATUS, type ErrorCode } from '@smartconnect/contracts/constants';
import { getToken, leaveToLogin } from '../storage.ts';
import { reportConnectionLost, reportConnectionRestored } from './connection.ts';
import { ApiError } from './errors.ts';

export type CallOptions = {
  /** Public calls (login, recovery) send no token and never trigger the 401 logout. */
  public?: boolean;
  signal?: AbortSignal;
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** §4/§8: a 401 on an authenticated call removes the token, goes to login and reloads. */
function logoutAndReload(): never {
  leaveToLogin();
  throw new ApiError(401, 'unauthorizedException');
}

/** §7: the identity calls (the session's user, its account, 2FA, logout), whose 500 is ignored silently. */
export const isIdentityCall = (path: string, options: CallOptions = {}) =>
  !options.public && /^\/api\/(auth|acc)\//.test(path);

/** The code for an answer that names none (a proxy's HTML page, an empty body): from its status alone. */
function codeOfStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorizedException';
  if (status === 403) return 'accessDeniedException';
  if (status === 404) return 'notFoundException';
  if (status === 413) return 'payloadTooLargeException';
  if (status === 429) return 'tooManyRequestsException';
  return 'unknownException';
}

type Failure = { code?: unknown; fields?: unknown; details?: unknown };

/**
 * The parts of an error body the app may use: a catalogue code (anything else counts by the status),
 * the fields' messages as strings (they are shown only through the translation table), the details.
 * Nothing else of the server's text (its `message`, a stack, a proxy's page) reaches the screen.
 */
function readFailure(status: number, body: unknown): ApiError {
  const error = (body && typeof body === 'object' && 'error' in body ? body.error : null) as Failure | null;
  const code =
    error && typeof error.code === 'string' && error.code in ERROR_STATUS
      ? (error.code as ErrorCode)
      : codeOfStatus(status);
  const raw = error && typeof error.fields === 'object' && error.fields ? error.fields : null;
  const fields = raw
    ? Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  const details =
    error && typeof error.details === 'object' && error.details
      ? (error.details as Record<string, unknown>)
      : undefined;
  return new ApiError(status, code, fields, details);
}

/** One call to the API; resolves with `entity`, rejects with an ApiError carrying the §8 code. */
export async function api<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  const token = options.public ? null : getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    console.warn('request failed', path, err);
    reportConnectionLost();
    throw new ApiError(0, 'networkError');
  }
  reportConnectionRestored();
  // Not JSON (a proxy's HTML error page, an empty body): read as an answer without a code.
  const json = (await res.json().catch(() => null)) as { code?: unknown; entity?: T } | null;
  if (res.ok && json && json.code === 'ok') return json.entity as T;
  // A 2xx that is not our envelope is no success either: it counts as an unknown error.
  const failure = readFailure(res.ok ? 500 : res.status, json);
  // Only a rejected session signs out: a 401 that names another code (a wrong 2FA code in the
  // profile, for one) is an answer to show, not a reason to lose the session.
  if (res.status === 401 && token && failure.code === 'unauthorizedException') logoutAndReload();
  failure.identity = isIdentityCall(path, options);
  throw failure;
}

export const get = <T>(path: string, options?: CallOptions) => api<T>('GET', path, undefined, options);
export const post = <T>(path: string, body?: unknown, options?: CallOptions) =>
  api<T>('POST', path, body ?? {}, options);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const put = <T>(path: string, body: unknown) => api<T>('PUT', path, body);
export const del = <T>(path: string) => api<T>('DELETE', path);

/** Builds a query string from the defined, non-empty values. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') s.set(k, String(v));
  const str = s.toString();
  return str ? `?${str}` : '';
}
