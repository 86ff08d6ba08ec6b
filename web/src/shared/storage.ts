/** Browser storage keys of §9. */
export const TOKEN_KEY = 'token';
export const LANG_KEY = 'sc-lang';

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const setToken = (token: string): void => localStorage.setItem(TOKEN_KEY, token);
export const clearToken = (): void => localStorage.removeItem(TOKEN_KEY);

let leaving = false;

/**
 * Forgets the token and loads the login page, once: a logout, a 401 and the socket the server closed on that
 * logout all lead here, and a second navigation would abort the first.
 */
export function leaveToLogin(): void {
  clearToken();
  if (leaving) return;
  leaving = true;
  window.location.assign('/');
}
