import { randomBytes } from 'node:crypto';
import {
  API_KEY_LIMITS,
  type ApiKeyCreatedDto,
  type ApiKeyCreateInput,
  type ApiKeyDto,
  type ApiScope,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { hashToken } from '../../lib/crypto.ts';
import { API_KEY_PREFIX } from './authenticate.ts';
import * as Q from './queries.ts';

/** Characters shown of a key after creation (the prefix and a few more), enough to tell keys apart. */
const SHOWN = API_KEY_PREFIX.length + 6;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function present(row: Q.ApiKeyRow, now: Date): ApiKeyDto {
  const status = row.revoked_at
    ? 'revoked'
    : row.expires_at && row.expires_at <= now
      ? 'expired'
      : row.expires_at
        ? 'expiring'
        : 'active';
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    status,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by ? { id: row.created_by, name: row.created_by_name ?? '' } : null,
    lastUsedAt: iso(row.last_used_at),
    lastUsedIp: row.last_used_ip,
    expiresAt: iso(row.expires_at),
    revokedAt: iso(row.revoked_at),
  };
}

export async function listApiKeys(app: AppContext, auth: AuthContext): Promise<ApiKeyDto[]> {
  const now = app.clock.now();
  return (await Q.listKeys(app.db, auth.organisationId)).map((r) => present(r, now));
}

async function issue(
  app: AppContext,
  q: Parameters<typeof Q.insertKey>[0],
  auth: AuthContext,
  input: { name: string; scopes: ApiScope[] },
): Promise<{ id: string; key: string }> {
  const now = app.clock.now();
  if ((await Q.liveKeyCount(q, auth.organisationId, now)) >= API_KEY_LIMITS.perOrganisationMax)
    throw new AppError('objectsLimitException', undefined, { max: API_KEY_LIMITS.perOrganisationMax });
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const id = await Q.insertKey(q, {
    orgId: auth.organisationId,
    name: input.name,
    prefix: key.slice(0, SHOWN),
    tokenHash: hashToken(key),
    scopes: input.scopes,
    createdBy: auth.userId,
    now,
  });
  return { id, key };
}

async function created(app: AppContext, auth: AuthContext, made: { id: string; key: string }) {
  const row = await Q.keyById(app.db, auth.organisationId, made.id);
  if (!row) throw new AppError('notFoundException');
  return { ...present(row, app.clock.now()), key: made.key };
}

export async function createApiKey(
  app: AppContext,
  auth: AuthContext,
  input: ApiKeyCreateInput,
): Promise<ApiKeyCreatedDto> {
  const made = await app.db.tx((q) => issue(app, q, auth, input));
  return created(app, auth, made);
}

/**
 * A new key with the same name and scopes; the old one keeps working for `overlapHours` (0: it stops now), so an
 * integration can switch without a gap. A revoked or ended key cannot be rotated (404 as for a key that is not there).
 */
export async function rotateApiKey(
  app: AppContext,
  auth: AuthContext,
  id: string,
  overlapHours: number,
): Promise<ApiKeyCreatedDto> {
  const now = app.clock.now();
  const made = await app.db.tx(async (q) => {
    const old = await Q.keyById(q, auth.organisationId, id, true);
    if (!old || old.revoked_at || (old.expires_at && old.expires_at <= now))
      throw new AppError('notFoundException');
    const next = await issue(app, q, auth, { name: old.name, scopes: old.scopes });
    await Q.endKeyAt(q, id, new Date(now.getTime() + overlapHours * 3_600_000), next.id);
    return next;
  });
  return created(app, auth, made);
}

/** Revoked at once: the next request with it fails on every instance (keys are looked up on each request). */
export async function revokeApiKey(app: AppContext, auth: AuthContext, id: string): Promise<ApiKeyDto> {
  const now = app.clock.now();
  await Q.revokeKey(app.db, auth.organisationId, id, now);
  const row = await Q.keyById(app.db, auth.organisationId, id);
  if (!row) throw new AppError('notFoundException');
  return present(row, now);
}
