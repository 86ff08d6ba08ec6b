import type { ApiScope } from '@smartconnect/contracts';
import { maybe, one, type Queryable, statement } from '../../db/index.ts';

export type ApiKeyRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiScope[];
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
};

const columns = `k.id, k.name, k.prefix, k.scopes, k.created_at, k.created_by, u.name as created_by_name,
  k.last_used_at, k.last_used_ip, k.expires_at, k.revoked_at`;

export const listKeys = (q: Queryable, orgId: string) =>
  q.query<ApiKeyRow>(
    `select ${columns} from api_keys k left join users u on u.id = k.created_by
      where k.organisation_id = $1 order by k.created_at desc, k.id desc`,
    [orgId],
  );

export const keyById = (q: Queryable, orgId: string, id: string, lock = false) =>
  maybe<ApiKeyRow>(
    q,
    `select ${columns} from api_keys k left join users u on u.id = k.created_by
      where k.organisation_id = $1 and k.id = $2${lock ? ' for update of k' : ''}`,
    [orgId, id],
  );

/** Keys that still work or will (not revoked, not past their end): the organisation's limit counts these. */
export const liveKeyCount = async (q: Queryable, orgId: string, now: Date) =>
  Number(
    (
      await one<{ n: string }>(
        q,
        `select count(*) as n from api_keys
          where organisation_id = $1 and revoked_at is null and (expires_at is null or expires_at > $2)`,
        [orgId, now],
      )
    ).n,
  );

export const insertKey = async (
  q: Queryable,
  k: {
    orgId: string;
    name: string;
    prefix: string;
    tokenHash: string;
    scopes: ApiScope[];
    createdBy: string;
    now: Date;
  },
) =>
  (
    await one<{ id: string }>(
      q,
      `insert into api_keys (organisation_id, name, prefix, token_hash, scopes, created_by, created_at)
       values ($1, $2, $3, $4, $5, $6, $7) returning id`,
      [k.orgId, k.name, k.prefix, k.tokenHash, k.scopes, k.createdBy, k.now],
    )
  ).id;

/** A rotated key: works until `until` (never later than an end it already had), replaced by `by`. */
export const endKeyAt = (q: Queryable, id: string, until: Date, by: string) =>
  q.query(
    `update api_keys set expires_at = least(coalesce(expires_at, $2), $2), replaced_by = $3 where id = $1`,
    [id, until, by],
  );

export const revokeKey = (q: Queryable, orgId: string, id: string, now: Date) =>
  q.query(
    'update api_keys set revoked_at = coalesce(revoked_at, $3) where organisation_id = $1 and id = $2',
    [orgId, id, now],
  );

export type KeyAuthRow = {
  id: string;
  organisation_id: string;
  created_by: string | null;
  scopes: ApiScope[];
  options: string[];
  last_used_at: Date | null;
  last_used_ip: string | null;
};

/** A working key of an active organisation, by its hash (every request: prepared). */
const byHash = statement(
  'api_key_by_hash',
  `select k.id, k.organisation_id, k.created_by, k.scopes, k.last_used_at, k.last_used_ip, o.options
     from api_keys k join organisations o on o.id = k.organisation_id
    where k.token_hash = $1 and k.revoked_at is null and (k.expires_at is null or k.expires_at > $2)
      and o.status = 'active'`,
);
export const keyByHash = (q: Queryable, hash: string, now: Date) => maybe<KeyAuthRow>(q, byHash, [hash, now]);

export const touchKey = (q: Queryable, id: string, now: Date, ip: string) =>
  q.query('update api_keys set last_used_at = $2, last_used_ip = $3 where id = $1', [id, now, ip]);

/** Who a key acts as when its creator's account is gone: the organisation's longest-standing active user with the most rights. */
export const organisationActor = async (q: Queryable, orgId: string) =>
  (
    await maybe<{ id: string }>(
      q,
      `select u.id from users u join roles r on r.id = u.role_id
        where u.organisation_id = $1 and u.active
        order by cardinality(r.rights) desc, u.created_at limit 1`,
      [orgId],
    )
  )?.id ?? null;
