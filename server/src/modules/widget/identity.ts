import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A visitor's identity is an id we chose at random, signed with the channel's own key: the token proves the
 * server issued that id for that channel, so a visitor cannot claim another visitor's id (and read their history)
 * nor reuse it on another channel. A support visitor (a signed-in user) is `u.<userId>` and is issued only to
 * that user.
 */
const sign = (key: string, channelId: string, visitorId: string) =>
  createHmac('sha256', key).update(`${channelId}.${visitorId}`).digest('base64url');

export const newVisitorId = (): string => `v.${randomBytes(18).toString('base64url')}`;

export const visitorToken = (key: string, channelId: string, visitorId: string): string =>
  `${visitorId}~${sign(key, channelId, visitorId)}`;

/** The visitor id a token names, when its signature is ours for this channel; null otherwise. */
export function visitorOf(key: string | undefined, channelId: string, token: unknown): string | null {
  if (!key || typeof token !== 'string' || token.length > 200) return null;
  const at = token.lastIndexOf('~');
  if (at <= 0) return null;
  const id = token.slice(0, at);
  if (!/^(v|u)\.[A-Za-z0-9_-]{8,64}$/.test(id)) return null;
  const given = Buffer.from(token.slice(at + 1));
  const expected = Buffer.from(sign(key, channelId, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
