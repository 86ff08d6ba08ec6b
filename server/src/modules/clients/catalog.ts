import {
  CLIENT_STATUS_COLORS,
  type ClientStatusColor,
  type ClientStatusDto,
  type CompanyDto,
} from '@smartconnect/contracts';
import type { AppContext } from '../../context.ts';
import type { AuthContext } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import * as C from './catalog-queries.ts';

const unique = async <T>(
  work: () => Promise<T>,
  code: 'statusAlreadyExistsException' | 'companyAlreadyExistsException',
) => {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new AppError(code);
    throw err;
  }
};

export const presentStatus = (s: C.StatusRow): ClientStatusDto => ({
  id: s.id,
  name: s.name,
  color: s.color,
  hex: CLIENT_STATUS_COLORS[s.color],
  clients: s.clients,
});
export const presentCompany = (c: C.CompanyRow): CompanyDto => ({
  id: c.id,
  name: c.name,
  clients: c.clients,
});

export const listStatuses = async (app: AppContext, auth: AuthContext) =>
  (await C.listStatuses(app.db, auth.organisationId)).map(presentStatus);

async function statusOf(app: AppContext, auth: AuthContext, id: string) {
  const s = await C.findStatus(app.db, auth.organisationId, id);
  if (!s) throw new AppError('statusNotFoundException');
  return presentStatus(s);
}

/** A customer status: a name unique in the organisation (any case) and a colour of the palette. */
export const createStatus = async (
  app: AppContext,
  auth: AuthContext,
  b: { name: string; color: ClientStatusColor },
) =>
  statusOf(
    app,
    auth,
    await unique(
      () => C.insertStatus(app.db, auth.organisationId, b.name, b.color),
      'statusAlreadyExistsException',
    ),
  );

export async function updateStatus(
  app: AppContext,
  auth: AuthContext,
  id: string,
  b: { name: string; color: ClientStatusColor },
) {
  await statusOf(app, auth, id);
  await unique(
    () => C.updateStatus(app.db, auth.organisationId, id, b.name, b.color),
    'statusAlreadyExistsException',
  );
  return statusOf(app, auth, id);
}

/** Deletes a status no client has (§8: an active status cannot be deleted until removed from all clients). */
export async function deleteStatus(app: AppContext, auth: AuthContext, id: string) {
  await app.db.tx(async (q) => {
    const s = await C.lockStatus(q, auth.organisationId, id);
    if (!s) throw new AppError('statusNotFoundException');
    if (s.used) throw new AppError('profileStatusInUseException');
    await C.deleteStatus(q, id);
  });
  return { id };
}

export const listCompanies = async (app: AppContext, auth: AuthContext, search?: string) =>
  (await C.listCompanies(app.db, auth.organisationId, search || undefined)).map(presentCompany);

async function companyOf(app: AppContext, auth: AuthContext, id: string) {
  const c = await C.findCompany(app.db, auth.organisationId, id);
  if (!c) throw new AppError('companyNotFoundException');
  return presentCompany(c);
}

/** An outer company of clients: a name unique in the organisation (any case). */
export const createCompany = async (app: AppContext, auth: AuthContext, name: string) =>
  companyOf(
    app,
    auth,
    await unique(() => C.insertCompany(app.db, auth.organisationId, name), 'companyAlreadyExistsException'),
  );

export async function renameCompany(app: AppContext, auth: AuthContext, id: string, name: string) {
  await companyOf(app, auth, id);
  await unique(() => C.renameCompany(app.db, auth.organisationId, id, name), 'companyAlreadyExistsException');
  return companyOf(app, auth, id);
}

/** Deletes a company; its clients simply lose it. */
export async function deleteCompany(app: AppContext, auth: AuthContext, id: string) {
  await companyOf(app, auth, id);
  await C.deleteCompany(app.db, auth.organisationId, id);
  return { id };
}
