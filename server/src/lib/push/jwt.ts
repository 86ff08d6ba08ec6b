import { type KeyObject, sign } from 'node:crypto';

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/**
 * A compact JWS of `claims` signed with `key`: RS256 (an RSA key, Google's service accounts) or ES256 (a P-256 key,
 * Apple's .p8 keys; the signature as JOSE wants it, r||s, not DER).
 */
export function signJwt(
  alg: 'RS256' | 'ES256',
  key: KeyObject,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): string {
  const head = `${b64url(JSON.stringify({ alg, typ: 'JWT', ...header }))}.${b64url(JSON.stringify(claims))}`;
  const signature =
    alg === 'RS256'
      ? sign('sha256', Buffer.from(head), key)
      : sign('sha256', Buffer.from(head), { key, dsaEncoding: 'ieee-p1363' });
  return `${head}.${b64url(signature)}`;
}
