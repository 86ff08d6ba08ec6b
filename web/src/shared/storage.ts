/** Browser storage keys of §9. */
export const TOKEN_KEY = 'token';
export const LANG_KEY = 'sc-lang';

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);
export const setToken = (token: string): void => localStorage.setItem(TOKEN_KEY, token);
export const clearToken = (): void => localStorage.removeItem(TOKEN_KEY);
