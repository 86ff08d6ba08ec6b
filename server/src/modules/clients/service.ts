import {
  type ClientListPage,
  type ClientProfileDto,
  type ClientProfileUpdate,
  normaliseEmail,
  normalisePhone,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { withEvents } from '../../realtime/emit.ts';
import { userInOrg } from '../users/readers.ts';
import { emitClientEvents } from './events.ts';
import { presentProfile, presentStatusRef } from './presenter.ts';
import * as P from './profile-queries.ts';
import * as Q from './queries.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A client the caller may see: with AUTHORITY_ALL_CHATS any of the organisation, else one of their chats'. */
export async function getClient(app: AppContext, auth: AuthContext, id: string) {
  const row = await Q.findClient(app.db, auth.organisationId, id);
  if (!row) throw new AppError('profileNotFoundException');
  if (!auth.rights.has('AUTHORITY_ALL_CHATS') && !(await Q.seesClient(app.db, id, auth.userId)))
    throw new AppError('profileNotFoundException');
  return row;
}

/** The whole profile (comments with OPTION_COMMENT) of a client the caller may see. */
export async function getProfile(app: AppContext, auth: AuthContext, id: string): Promise<ClientProfileDto> {
  return loadProfile(app, auth, await getClient(app, auth, id));
}

/** The profile of a client already checked (a change may end the caller's view of them: blocking closes their chats). */
export async function loadProfile(
  app: AppContext,
  auth: AuthContext,
  base: Q.ClientRow,
): Promise<ClientProfileDto> {
  const p = await P.findProfile(app.db, auth.organisationId, base.id, auth.options.has('OPTION_COMMENT'));
  if (!p) throw new AppError('profileNotFoundException');
  return presentProfile(base, p);
}

const dupe = (values: string[]) => {
  const seen = new Set<string>();
  for (const v of values) {
    const k = v.toLowerCase();
    if (seen.has(k)) return v;
    seen.add(k);
  }
  return undefined;
};

/**
 * Changes a client's profile in one transaction: name (§5), personal manager (a user of the organisation); with
 * OPTION_PROFILE tags,
 * extra fields, status (OPTION_PROFILE_STATUS), outer companies, spam mark, session status, phones and e-mails (a
 * value another client owns: contactAlreadyExistsException). A list given replaces the client's list.
 */
export async function updateProfile(
  app: AppContext,
  auth: AuthContext,
  id: string,
  input: ClientProfileUpdate,
) {
  await getClient(app, auth, id);
  const managerId = input.managerId !== undefined ? input.managerId : input.personalManagerId;
  // The advertising consent is the client's own choice, kept on every plan (a mailing's opt-out reply sets it too).
  const { name: _n, personalManagerId: _p, managerId: _m, advertisingOptOut: _a, ...profile } = input;
  if (Object.values(profile).some((v) => v !== undefined) && !auth.options.has('OPTION_PROFILE'))
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_PROFILE' });
  if (input.statusId !== undefined && !auth.options.has('OPTION_PROFILE_STATUS'))
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_PROFILE_STATUS' });
  const tag = input.tags && dupe(input.tags);
  if (tag) throw new AppError('tagAlreadyExistsException', undefined, { value: tag });
  const field = input.fields && dupe(input.fields.map((f) => f.name));
  if (field) throw new AppError('fieldAlreadyExistsException', undefined, { value: field });
  const contacts = input.contacts && [
    ...new Map(input.contacts.map((c) => [`${c.kind}:${c.value}`, c])).values(),
  ];
  const org = auth.organisationId;
  try {
    await withEvents(app, async (q, emit) => {
      if (!(await P.lockClient(q, org, id))) throw new AppError('profileNotFoundException');
      if (managerId && !(await userInOrg(q, org, managerId)))
        throw new AppError('validationException', { managerId: 'Value specified incorrectly' });
      if (input.statusId && !(await P.countOwned(q, 'client_statuses', org, [input.statusId])))
        throw new AppError('statusNotFoundException');
      const companyIds = input.companyIds && [...new Set(input.companyIds)];
      if (companyIds?.length && (await P.countOwned(q, 'companies', org, companyIds)) !== companyIds.length)
        throw new AppError('companyNotFoundException');
      if (contacts) {
        const taken = await P.contactOwnedElsewhere(q, org, id, contacts);
        if (taken) throw new AppError('contactAlreadyExistsException', undefined, { value: taken.value });
        await P.replaceContacts(q, org, id, contacts);
      }
      if (companyIds) await P.replaceCompanies(q, org, id, companyIds);
      await P.patchClient(q, org, id, {
        name: input.name,
        managerId,
        tags: input.tags,
        fields: input.fields,
        statusId: input.statusId,
        spam: input.spam,
        sessionStatus: input.sessionStatus,
        advertisingOptOut: input.advertisingOptOut,
      });
      if (Object.values(input).some((v) => v !== undefined))
        await emitClientEvents({ q, emit }, org, 'client.updated', [id]);
    });
  } catch (err) {
    // A concurrent writer took the phone or e-mail between the check and the insert.
    if ((err as { code?: string }).code === '23505') throw new AppError('contactAlreadyExistsException');
    throw err;
  }
  return getProfile(app, auth, id);
}

/** Adds a comment (author: the caller) to a client they may see. */
export async function addComment(app: AppContext, auth: AuthContext, id: string, text: string) {
  await getClient(app, auth, id);
  await P.insertComment(app.db, auth.organisationId, id, auth.userId, text);
  return getProfile(app, auth, id);
}

/**
 * The clients list (OPTION_PROFILE): newest first, a page of `limit` and the cursor of the next one. Without
 * AUTHORITY_ALL_CHATS only the clients the caller handled or manages.
 */
export async function listClients(
  app: AppContext,
  auth: AuthContext,
  f: P.ListFilters,
): Promise<ClientListPage> {
  if (!auth.options.has('OPTION_PROFILE'))
    throw new AppError('optionUnavailableException', undefined, { option: 'OPTION_PROFILE' });
  const search = f.search || undefined;
  const phone = search && /^\+?[\d\s()-]{5,}$/.test(search) ? normalisePhone(search) : null;
  const email = search?.includes('@') ? normaliseEmail(search) : null;
  const rows = await P.listClients(app.db, auth.organisationId, {
    ...f,
    search,
    phone,
    email,
    viewerId: auth.rights.has('AUTHORITY_ALL_CHATS') ? null : auth.userId,
  });
  const more = rows.length > f.limit;
  const items = rows.slice(0, f.limit);
  return {
    items: items.map((r) => ({
      id: r.id,
      name: r.name,
      tags: r.tags,
      status: presentStatusRef(r.status),
      manager: r.manager,
      details: r.details,
      spam: r.spam,
      blocked: r.blocked_at !== null,
      createdAt: iso(r.created_at),
    })),
    nextCursor: more ? items[items.length - 1].id : null,
  };
}

/**
 * A client's own details on their contact of a channel (a site widget visitor introducing themselves), by the
 * provider's id of the client (the visitor id): false when the client has not written there yet.
 */
export const setContactDetails = (
  app: AppContext,
  channelId: string,
  externalId: string,
  details: { name?: string; email?: string; phone?: string },
): Promise<boolean> =>
  withEvents(app, async (q, emit) => {
    const contact = await Q.setContactDetails(q, channelId, externalId, details);
    if (contact?.changed)
      await emitClientEvents({ q, emit }, contact.organisation_id, 'client.updated', [contact.client_id]);
    return !!contact;
  });
