import { timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../lib/crypto.ts';
import type { AdapterChannel, RawRequest } from '../types.ts';

/** The API channel authenticates inbound pushes with `Authorization: Bearer <inboundKey>`. */
export function verifyApi(channel: AdapterChannel, req: RawRequest): boolean {
  const header = req.headers.authorization;
  if (!channel.inboundKeyHash || typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(hashToken(header.slice(7).trim()));
  const expected = Buffer.from(channel.inboundKeyHash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
