import type { CurrentUserDto } from '@smartconnect/contracts';
import { getToken } from '../storage.ts';
import { get } from './client.ts';

const standalone = () => window.matchMedia?.('(display-mode: standalone)').matches ?? false;

let early: Promise<CurrentUserDto> | null = null;

/**
 * The session's user (GET auth/user). The first call of a page load takes the request `startCurrentUser` began
 * when the entry ran, so an admin page does not wait for its shell's chunks before asking for it.
 */
export function fetchCurrentUser(): Promise<CurrentUserDto> {
  const started = early;
  early = null;
  return started ?? get<CurrentUserDto>(`/api/auth/user?pwa=${standalone()}`);
}

/** Starts the session's request at once when a signed-in browser opens a page of the admin area. */
export function startCurrentUser(pathname: string): void {
  if (early || !pathname.startsWith('/admin') || !getToken()) return;
  early = get<CurrentUserDto>(`/api/auth/user?pwa=${standalone()}`);
  // Its failure is read by the session's query that takes it (a 401 already logs out in the client).
  early.catch(() => undefined);
}
