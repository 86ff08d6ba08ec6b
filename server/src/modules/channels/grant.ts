import { FIELD_MESSAGES as M } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { decryptSecret, encryptSecret } from '../../lib/crypto.ts';

/**
 * k: what it is; t: channel type; o: organisation; u: user; v: the provider's token; x: when it expires (ms); e: when
 * this expires (ms); g: the account a second authorisation is for (VK: the community of a community token).
 */
type Sealed = {
  k: 'state' | 'grant';
  t: string;
  o: string;
  u?: string;
  v?: string;
  x?: number;
  e: number;
  g?: string;
};

export const seal = (app: AppContext, s: Sealed) =>
  Buffer.from(encryptSecret(app.config.secretKey, JSON.stringify(s))).toString('base64url');

export function open(app: AppContext, sealed: string, k: Sealed['k'], type: string): Sealed | null {
  try {
    const s = JSON.parse(
      decryptSecret(app.config.secretKey, Buffer.from(sealed, 'base64url').toString()),
    ) as Sealed;
    return s.k === k && s.t === type && s.e > app.clock.now().getTime() ? s : null;
  } catch {
    return null;
  }
}

/** The provider's user token a grant carries, when it is this organisation's, of this type and not expired. */
export function openGrant(app: AppContext, auth: AuthContext, type: string, own: Record<string, unknown>) {
  if (typeof own.grant !== 'string') return own;
  const s = open(app, own.grant, 'grant', type);
  if (!s || s.o !== auth.organisationId || !s.v)
    throw new AppError('validationException', { grant: M.tokenIncorrect });
  return {
    ...own,
    grant: s.v,
    ...(s.x ? { grantExpiresAt: new Date(s.x).toISOString() } : {}),
    ...(s.g ? { grantAccountId: s.g } : {}),
  };
}
