import type { ClientDto } from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import * as Q from './queries.ts';

export const presentClient = (c: Q.ClientRow): ClientDto => ({
  id: c.id,
  name: c.name,
  personalManagerId: c.personal_manager_id,
  contacts: c.contacts,
});

/** A client the caller may see: with AUTHORITY_ALL_CHATS any of the organisation, else one of their chats'. */
export async function getClient(app: AppContext, auth: AuthContext, id: string) {
  const row = await Q.findClient(app.db, auth.organisationId, id);
  if (!row) throw new AppError('profileNotFoundException');
  if (!auth.rights.has('AUTHORITY_ALL_CHATS') && !(await Q.seesClient(app.db, id, auth.userId)))
    throw new AppError('profileNotFoundException');
  return row;
}

/** Renames a client or sets their personal manager (a user of the same organisation, or null). */
export async function updateClient(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: { name?: string; personalManagerId?: string | null },
) {
  await getClient(app, auth, id);
  await app.db.tx(async (q) => {
    if (input.personalManagerId && !(await Q.userInOrg(q, auth.organisationId, input.personalManagerId)))
      throw new AppError('validationException', { personalManagerId: 'Value specified incorrectly' });
    await Q.updateClient(q, auth.organisationId, id, input);
  });
  return getClient(app, auth, id);
}
