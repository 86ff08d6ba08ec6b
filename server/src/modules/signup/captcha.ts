import type { CaptchaChallenge } from '@smartconnect/contracts';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Payload } from 'altcha-lib/v1/types';
import type { Queryable } from '../../db/index.ts';

/**
 * A captcha behind one interface, so another provider can replace the self-hosted proof of work (CAPTCHA_PROVIDER).
 * `verify` is true only for a solution of a challenge this server signed, not expired and not used before.
 */
export type CaptchaProvider = {
  name: string;
  challenge(now: Date): Promise<CaptchaChallenge>;
  verify(q: Queryable, payload: string, now: Date): Promise<boolean>;
};

/** How long a challenge may be solved and sent; the solution is then spent. */
export const CAPTCHA_TTL_MS = 10 * 60_000;

function decode(payload: string): Payload | null {
  try {
    const p = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Payload;
    const ok =
      p &&
      typeof p === 'object' &&
      typeof p.signature === 'string' &&
      typeof p.salt === 'string' &&
      typeof p.challenge === 'string' &&
      Number.isInteger(p.number);
    return ok ? p : null;
  } catch {
    return null;
  }
}

/**
 * ALTCHA (its v1 proof of work, altcha-lib): the browser finds the number n ≤ maxnumber with SHA-256(salt + n) =
 * challenge; the HMAC signature proves the challenge is ours. The expiry in the salt is checked against the
 * server's clock (not the library's), and the signature is recorded so a solution cannot be replayed.
 */
export function altchaProvider(hmacKey: string, maxNumber: number): CaptchaProvider {
  return {
    name: 'altcha',
    async challenge(now) {
      const c = await createChallenge({
        hmacKey,
        maxNumber,
        expires: new Date(now.getTime() + CAPTCHA_TTL_MS),
      });
      return {
        provider: 'altcha',
        algorithm: 'SHA-256',
        challenge: c.challenge,
        maxnumber: c.maxnumber ?? maxNumber,
        salt: c.salt,
        signature: c.signature,
      };
    },
    async verify(q, payload, now) {
      const p = decode(payload);
      if (p?.algorithm !== 'SHA-256') return false;
      const expires = Number(extractParams(p).expires);
      if (!Number.isFinite(expires) || expires * 1000 <= now.getTime()) return false;
      if (!(await verifySolution(p, hmacKey, false))) return false;
      await q.query('delete from captcha_uses where expires_at < $1', [now]);
      const spent = await q.query<{ signature: string }>(
        'insert into captcha_uses (signature, expires_at) values ($1, $2) on conflict do nothing returning signature',
        [p.signature, new Date(expires * 1000)],
      );
      return spent.length === 1;
    },
  };
}
