import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The proof that an app user is who the app says (for the SDK, issue 34's next part): the customer's backend computes
 * HMAC-SHA256 of the user's id with the channel's identity secret, hex, and the app hands it to the SDK with the id.
 */
export const identityHash = (secret: string, userId: string): string =>
  createHmac('sha256', secret).update(userId, 'utf8').digest('hex');

/** Whether `hash` proves `userId` with the channel's identity secret (compared in constant time). */
export function identityValid(secret: string, userId: string, hash: string): boolean {
  const want = Buffer.from(identityHash(secret, userId), 'hex');
  const got = /^[0-9a-f]{64}$/i.test(hash) ? Buffer.from(hash, 'hex') : Buffer.alloc(0);
  return got.length === want.length && timingSafeEqual(got, want);
}
