import type { ClientStatusColor } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';

export type StatusRow = { id: string; name: string; color: ClientStatusColor; clients: number };
const statusCols = `s.id, s.name, s.color,
  (select count(*)::int from clients c where c.status_id = s.id) as clients`;

export const listStatuses = (q: Queryable, orgId: string) =>
  q.query<StatusRow>(
    `select ${statusCols} from client_statuses s where s.organisation_id = $1 order by lower(s.name), s.id`,
    [orgId],
  );
export const findStatus = (q: Queryable, orgId: string, id: string) =>
  maybe<StatusRow>(
    q,
    `select ${statusCols} from client_statuses s where s.id = $1 and s.organisation_id = $2`,
    [id, orgId],
  );
export const insertStatus = async (q: Queryable, orgId: string, name: string, color: string) =>
  (
    await q.query<{ id: string }>(
      'insert into client_statuses (organisation_id, name, color) values ($1, $2, $3) returning id',
      [orgId, name, color],
    )
  )[0].id;
export const updateStatus = (q: Queryable, orgId: string, id: string, name: string, color: string) =>
  q.query('update client_statuses set name = $3, color = $4 where id = $1 and organisation_id = $2', [
    id,
    orgId,
    name,
    color,
  ]);
/** The status row locked, and whether any client has it (checked under the lock: a client set meanwhile waits). */
export const lockStatus = (q: Queryable, orgId: string, id: string) =>
  maybe<{ id: string; used: boolean }>(
    q,
    `select s.id, exists (select 1 from clients c where c.status_id = s.id) as used
       from client_statuses s where s.id = $1 and s.organisation_id = $2 for update`,
    [id, orgId],
  );
export const deleteStatus = (q: Queryable, id: string) =>
  q.query('delete from client_statuses where id = $1', [id]);

export type CompanyRow = { id: string; name: string; clients: number };
const companyCols = `co.id, co.name,
  (select count(*)::int from client_company_links l where l.company_id = co.id) as clients`;
/** Companies by a name's beginning (any case), in name order. */
export const listCompanies = (q: Queryable, orgId: string, search: string | undefined) =>
  q.query<CompanyRow>(
    `select ${companyCols} from companies co
      where co.organisation_id = $1 and ($2::text is null or lower(co.name) like $2)
      order by lower(co.name), co.id limit 500`,
    [orgId, search ? `${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null],
  );
export const findCompany = (q: Queryable, orgId: string, id: string) =>
  maybe<CompanyRow>(
    q,
    `select ${companyCols} from companies co where co.id = $1 and co.organisation_id = $2`,
    [id, orgId],
  );
export const insertCompany = async (q: Queryable, orgId: string, name: string) =>
  (
    await q.query<{ id: string }>(
      'insert into companies (organisation_id, name) values ($1, $2) returning id',
      [orgId, name],
    )
  )[0].id;
export const renameCompany = (q: Queryable, orgId: string, id: string, name: string) =>
  q.query('update companies set name = $3 where id = $1 and organisation_id = $2', [id, orgId, name]);
export const deleteCompany = (q: Queryable, orgId: string, id: string) =>
  q.query('delete from companies where id = $1 and organisation_id = $2', [id, orgId]);
