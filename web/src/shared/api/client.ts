import type { ErrorBody, ErrorCode } from '@smartconnect/contracts';
import { clearToken, getToken } from '../storage.ts';
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
  clearToken();
  window.location.assign('/');
  throw new ApiError(401, 'unauthorizedException');
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
  const json = (await res.json().catch(() => null)) as { code: string; entity: T } | ErrorBody | null;
  if (res.ok && json && json.code === 'ok') return (json as { entity: T }).entity;
  const error = json && 'error' in json && json.error ? json.error : null;
  // Only a rejected session signs out: a 401 that names another code (a wrong 2FA code in the
  // profile, for one) is an answer to show, not a reason to lose the session.
  if (res.status === 401 && token && (!error || error.code === 'unauthorizedException')) logoutAndReload();
  const code = (error?.code ?? (res.status >= 500 ? 'unknownException' : 'notFoundException')) as ErrorCode;
  throw new ApiError(res.status, code, error?.fields, error?.details);
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
