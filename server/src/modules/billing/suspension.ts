import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/index.ts';
import { AppError } from '../../http/errors.ts';
import * as Q from './queries.ts';

/** Where the organisation's paid service stands today (the admin shell's banners, Finance). */
export const billingState = (app: AppContext, orgId: string) =>
  Q.billingState(app.db, orgId, app.clock.now().toISOString().slice(0, 10));

/**
 * Operators of an organisation suspended for non-payment cannot take, start or answer chats (403
 * organizationSuspendedException, which the web explains); inbound messages are still stored and wait.
 */
export async function assertNotSuspended(q: Queryable, orgId: string): Promise<void> {
  const [row] = await q.query<{ suspended: boolean }>(
    'select suspended_at is not null as suspended from organisations where id = $1',
    [orgId],
  );
  if (row?.suspended) throw new AppError('organizationSuspendedException');
}
