import type { Right } from '@smartconnect/contracts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';

/** Nobody hands out rights they do not hold themselves: no escalation through roles. */
export function assertCanGrant(auth: AuthContext, rights: readonly string[]): void {
  if (rights.some((r) => !auth.rights.has(r as Right))) throw new AppError('accessDeniedException');
}

/** Rights that give power over other people's accounts, data or money. */
const ADMINISTRATIVE: readonly Right[] = [
  'RIGHT_ACCOUNT_CONTROL',
  'AUTHORITY_ROLE_MODIFY',
  'AUTHORITY_TEAMS_UPDATE',
  'AUTHORITY_SERVICE_ACCOUNT',
  'AUTHORITY_INTEGRATION',
  'AUTHORITY_FINANCE',
  'AUTHORITY_ALL_CHATS',
  'AUTHORITY_ALL_STAT',
  'RIGHT_OBSERVER',
];

/**
 * Editing an account (its password, e-mail, photo) is taking it over: allowed only when the target
 * holds no administrative right the caller lacks. Operators' working rights do not count.
 */
export function assertCanManage(auth: AuthContext, targetRights: readonly string[]): void {
  assertCanGrant(
    auth,
    targetRights.filter((r) => ADMINISTRATIVE.includes(r as Right)),
  );
}

/** A user cannot deactivate themselves or change their own role. */
export function assertNotSelf(auth: AuthContext, userId: string): void {
  if (auth.userId === userId) throw new AppError('accessDeniedException');
}

/**
 * Changing which teams a user is in is AUTHORITY_TEAMS_UPDATE ("change user team"), whichever route carries it:
 * a user form may send the teams it was given unchanged, but a different set needs the right.
 */
export function assertCanChangeTeams(
  auth: AuthContext,
  current: readonly string[],
  next: readonly string[],
): void {
  if (auth.rights.has('AUTHORITY_TEAMS_UPDATE')) return;
  const a = new Set(current);
  const b = new Set(next);
  if (a.size !== b.size || [...b].some((t) => !a.has(t))) throw new AppError('accessDeniedException');
}
