import type { LoginResult } from '@smartconnect/contracts';
import { get, post } from '../../shared/api/client.ts';

/** `captcha`: a solved challenge, once the server has asked for one (400 invalidCaptchaException). */
export const loginCall = (body: { email: string; password: string; captcha?: string }) =>
  post<LoginResult>('/api/auth/login', body, { public: true });
export const twoFactorCall = (body: { ticket: string; code: string }) =>
  post<{ token: string }>('/api/auth/login/two-factor', body, { public: true });
export const recoveryRequest = (body: { email: string; captcha: string }) =>
  post<{ email: string }>('/api/auth/recovery', body, { public: true });
export const recoveryCheck = (token: string) =>
  get<unknown>(`/api/auth/recovery/${encodeURIComponent(token)}`, { public: true });
export const recoveryReset = (body: { token: string; password: string; repeatPassword: string }) =>
  post<unknown>('/api/auth/recovery/reset', body, { public: true });
