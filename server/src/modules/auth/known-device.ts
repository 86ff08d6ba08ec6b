import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.ts';

/**
 * The "known device" of issue 29: each completed sign-in leaves a signed cookie naming the user, and a browser that
 * shows it for that user keeps the normal sign-in path while the account is throttled for everyone else. It is
 * stateless (an HMAC with SECRET_KEY) and bound to the password: a changed password makes every device unknown.
 */
export const DEVICE_COOKIE = 'sc_device';
const MAX_AGE_S = 180 * 86_400;
/** Users remembered per browser (a shared desk), newest first. */
const MAX_ENTRIES = 5;

type User = { id: string; password_hash: string };

const sign = (app: AppContext, user: User, issued: number) =>
  createHmac('sha256', `${app.config.secretKey}:device`)
    .update(`${user.id}.${issued}.${createHash('sha256').update(user.password_hash).digest('hex')}`)
    .digest('base64url');

function entries(cookieHeader: string | undefined): string[] {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === DEVICE_COOKIE) return value.join('=').split('~').filter(Boolean).slice(0, MAX_ENTRIES);
  }
  return [];
}

/** Whether the request's cookie holds a valid, unexpired entry for this user under the current password. */
export function isKnownDevice(app: AppContext, cookieHeader: string | undefined, user: User, now: Date) {
  return entries(cookieHeader).some((entry) => {
    const [id, issuedText, mac] = entry.split('.');
    const issued = Number(issuedText);
    if (id !== user.id || !Number.isInteger(issued) || !mac) return false;
    if (issued + MAX_AGE_S <= now.getTime() / 1000) return false;
    const want = Buffer.from(sign(app, user, issued));
    const got = Buffer.from(mac);
    return want.length === got.length && timingSafeEqual(want, got);
  });
}

/** The Set-Cookie value after a completed sign-in: this user's fresh entry first, other users' entries kept. */
export function knownDeviceCookie(app: AppContext, cookieHeader: string | undefined, user: User, now: Date) {
  const issued = Math.floor(now.getTime() / 1000);
  const others = entries(cookieHeader).filter((e) => e.split('.')[0] !== user.id);
  const value = [`${user.id}.${issued}.${sign(app, user, issued)}`, ...others]
    .slice(0, MAX_ENTRIES)
    .join('~');
  const secure = app.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${DEVICE_COOKIE}=${value}; Path=/api/auth; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Strict${secure}`;
}
