import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A random secret for tokens, tickets and links (256 bits, URL-safe). */
export const randomToken = (): string => randomBytes(32).toString('base64url');
/** Tokens are stored as their SHA-256: a leaked table does not give working tokens. */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** AES-256-GCM for secrets at rest (TOTP secrets, channel credentials), keyed by SECRET_KEY. */
export function encryptSecret(secretKey: string, plain: string): string {
  const key = createHash('sha256').update(secretKey).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

export function decryptSecret(secretKey: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1') throw new Error('unknown secret format');
  const key = createHash('sha256').update(secretKey).digest();
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
