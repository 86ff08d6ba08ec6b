import type { CaptchaChallenge, SignupStartBody, SignupState } from '@smartconnect/contracts';
import { get, post } from '../../shared/api/client.ts';

const at = (token: string) => `/api/signup/${encodeURIComponent(token)}`;
export const fetchChallenge = () => get<CaptchaChallenge>('/api/signup/challenge', { public: true });
export const startSignup = (body: SignupStartBody) =>
  post<SignupState>('/api/signup', body, { public: true });
export const fetchSignup = (token: string) => get<SignupState>(at(token), { public: true });
export const sendCode = (token: string, stage: 'email' | 'phone', code: string) =>
  post<SignupState>(`${at(token)}/${stage}-code`, { code }, { public: true });
export const resendCode = (token: string) => post<SignupState>(`${at(token)}/resend`, {}, { public: true });
