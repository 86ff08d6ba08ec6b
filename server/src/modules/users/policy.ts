import type { Right } from '@smartconnect/contracts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';

/** Nobody hands out rights they do not hold themselves: no escalation through roles. */
export function assertCanGrant(auth: AuthContext, rights: readonly string[]): void {
  if (rights.some((r) => !auth.rights.has(r as Right))) throw new AppError('accessDeniedException');
}

/** A user cannot deactivate or demote themselves out of the account-control right by accident. */
export function assertNotSelf(auth: AuthContext, userId: string): void {
  if (auth.userId === userId) throw new AppError('accessDeniedException');
}
