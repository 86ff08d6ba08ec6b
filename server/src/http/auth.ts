import { type ApiScope, ASSIGNABLE_RIGHTS, type PlanOption, type Right } from '@smartconnect/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { maybe } from '../db/index.ts';
import { hashToken } from '../lib/crypto.ts';
import { authenticateApiKey, isApiKey } from '../modules/api-keys/authenticate.ts';
import { touchSession } from '../modules/auth/sessions.ts';
import { markActive } from '../modules/users/account.ts';
import { AppError } from './errors.ts';

export type AuthContext = {
  userId: string;
  organisationId: string;
  sessionId: string;
  roleId: string;
  rights: Set<Right>;
  options: Set<PlanOption>;
  /** The request came with an organisation API key (issue 34): its id and scopes; the routes it may call name one. */
  apiKey?: { id: string; scopes: ReadonlySet<ApiScope> };
};

type SessionRow = {
  session_id: string;
  user_id: string;
  organisation_id: string;
  role_id: string;
  rights: Right[];
  options: PlanOption[];
  last_used_at: Date;
};

/**
 * Reads the bearer token (or `?token=` for websockets), and answers 401 unless it is a live session of an active
 * user, or an organisation's API key (`Authorization: Bearer sck_…` or `X-Api-Key`; never in the address, which
 * servers and proxies log).
 */
export async function authenticate(app: AppContext, req: FastifyRequest): Promise<AuthContext> {
  const header = req.headers['x-api-key'];
  const apiKey = typeof header === 'string' && header.trim() ? header.trim() : undefined;
  const fromHeader = req.headers.authorization?.startsWith('Bearer ');
  const token = apiKey ?? bearerToken(req);
  if (!token) throw new AppError('unauthorizedException');
  if (isApiKey(token)) {
    if (!apiKey && !fromHeader) throw new AppError('unauthorizedException');
    const key = await authenticateApiKey(app, token, req.ip);
    return {
      userId: key.userId,
      organisationId: key.organisationId,
      sessionId: `api-key:${key.keyId}`,
      roleId: '',
      // A key acts as the organisation: every right a customer role may hold, reaching only its scopes' routes.
      rights: new Set(ASSIGNABLE_RIGHTS),
      options: new Set(key.options),
      apiKey: { id: key.keyId, scopes: key.scopes },
    };
  }
  return authenticateToken(app, token);
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/** Sessions last used before this moment have expired (SESSION_IDLE_DAYS): checked in the same query, no extra cost. */
export const idleCutoff = (app: AppContext, now: Date): Date =>
  new Date(now.getTime() - app.config.sessionIdleDays * 86_400_000);

export async function authenticateToken(app: AppContext, token: string): Promise<AuthContext> {
  const now = app.clock.now();
  const row = await maybe<SessionRow>(
    app.db,
    `select s.id as session_id, s.last_used_at, u.id as user_id, u.organisation_id, u.role_id, r.rights, o.options
       from sessions s
       join users u on u.id = s.user_id
       join roles r on r.id = u.role_id
       join organisations o on o.id = u.organisation_id
      where s.token_hash = $1 and s.revoked_at is null and u.active and o.status = 'active'
        and s.last_used_at > $2`,
    [hashToken(token), idleCutoff(app, now)],
  );
  if (!row) throw new AppError('unauthorizedException');
  // Activity is written at most once a minute per session, not on every call.
  if (now.getTime() - new Date(row.last_used_at).getTime() > 60_000) {
    await touchSession(app.db, row.session_id, now);
    await markActive(app.db, row.user_id, now);
  }
  return {
    userId: row.user_id,
    organisationId: row.organisation_id,
    sessionId: row.session_id,
    roleId: row.role_id,
    rights: new Set(row.rights),
    options: new Set(row.options),
  };
}

/** Organisation filter for reads: RIGHT_OBSERVER (platform staff) reads every organisation. */
export const readScope = (auth: AuthContext): string | null =>
  auth.rights.has('RIGHT_OBSERVER') ? null : auth.organisationId;
