import type { ApiScope, PlanOption } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../lib/crypto.ts';
import * as Q from './queries.ts';

/** What every key starts with: tells a key from a session token, and lets secret scanners find leaked ones. */
export const API_KEY_PREFIX = 'sck_';
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/** A working key's identity: its organisation, the user it is attributed to, its scopes and the plan's options. */
export type KeyIdentity = {
  keyId: string;
  organisationId: string;
  userId: string;
  scopes: ReadonlySet<ApiScope>;
  options: ReadonlySet<PlanOption>;
};

/**
 * The key's identity, or 401 (unknown, revoked, past its end, or its organisation not active). Looked up on every
 * request, so a revoked key fails at once on every instance. A key is attributed to the user who made it (or, when
 * that account is gone, the organisation's senior active user) wherever a person must be named. Its last use (time
 * and address) is written at most once a minute, or when the address changes.
 */
export async function authenticateApiKey(app: AppContext, key: string, ip: string): Promise<KeyIdentity> {
  const now = app.clock.now();
  const row = await Q.keyByHash(app.db, hashToken(key), now);
  if (!row) throw new AppError('unauthorizedException');
  const userId = row.created_by ?? (await Q.organisationActor(app.db, row.organisation_id));
  if (!userId) throw new AppError('unauthorizedException');
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > 60_000 || row.last_used_ip !== ip)
    await Q.touchKey(app.db, row.id, now, ip);
  return {
    keyId: row.id,
    organisationId: row.organisation_id,
    userId,
    scopes: new Set(row.scopes),
    options: new Set(row.options as PlanOption[]),
  };
}
