import { maybe, type Queryable } from '../../db/index.ts';

/** Whether a user belongs to the organisation (the one reader other modules use; the users module owns the table). */
export const userInOrg = async (q: Queryable, orgId: string, userId: string): Promise<boolean> =>
  !!(await maybe(q, 'select 1 from users where id = $1 and organisation_id = $2', [userId, orgId]));

/** A user's name in the organisation, or '' (the take-over notice names who took the chat). */
export const userName = async (q: Queryable, orgId: string, id: string): Promise<string> =>
  (
    await maybe<{ name: string }>(q, 'select name from users where id = $1 and organisation_id = $2', [
      id,
      orgId,
    ])
  )?.name ?? '';
