import type { Queryable } from '../../db/index.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { templateModifyDenied } from './queries.ts';

/** Holders of AUTHORITY_TEAM_TEMPLATE manage every template of their organisation (§6 "team templates"). */
export const managesTemplates = (auth: AuthContext): boolean => auth.rights.has('AUTHORITY_TEAM_TEMPLATE');

/**
 * Whose teams a list is filtered by: the caller's own (what the composer offers), or, with `all`, none — the whole
 * organisation, for those who manage templates only.
 */
export function listScope(auth: AuthContext, all: boolean | undefined): string | null {
  if (!all) return auth.userId;
  if (!managesTemplates(auth)) throw new AppError('accessDeniedException');
  return null;
}

/** §6/§8: an organisation whose team-template modification is denied keeps its templates as they are. */
export async function assertTemplatesModifiable(q: Queryable, auth: AuthContext): Promise<void> {
  if (await templateModifyDenied(q, auth.organisationId)) throw new AppError('templateModifyDeniedException');
}
