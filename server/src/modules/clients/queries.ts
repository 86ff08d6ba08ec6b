import type { ClientDto } from '@smartconnect/contracts';
import { maybe, type Queryable } from '../../db/index.ts';

export type ClientRow = {
  id: string;
  organisation_id: string;
  name: string;
  personal_manager_id: string | null;
  contacts: ClientDto['contacts'];
};

export const findClient = (q: Queryable, orgId: string, id: string) =>
  maybe<ClientRow>(
    q,
    `select cl.id, cl.organisation_id, cl.name, cl.personal_manager_id,
            coalesce((select json_agg(json_build_object('channelId', ct.channel_id, 'externalId', ct.external_id,
                                                        'name', ct.name, 'username', ct.username,
                                                        'email', ct.email, 'phone', ct.phone)
                                      order by ct.created_at)
                        from contacts ct where ct.client_id = cl.id), '[]'::json) as contacts
       from clients cl where cl.id = $1 and cl.organisation_id = $2`,
    [id, orgId],
  );

/**
 * Whether the viewer handles (or handled) a chat of this client, or may see it waiting: in one of their teams, or
 * on a channel visible to one of their teams (chats policy.canSee); a dialog closed before any operator took it (a
 * blacklisted client's) stays visible to those teams.
 */
export const seesClient = async (q: Queryable, clientId: string, userId: string) =>
  !!(await maybe(
    q,
    `with mine as (select array_agg(team_id) as ids from team_members where user_id = $2)
     select 1 from chats c join channels ch on ch.id = c.channel_id, mine
      where c.client_id = $1
        and (c.operator_id = $2
             or ((c.status = 'waiting' or (c.status = 'closed' and c.operator_id is null))
                 and (c.team_id = any(mine.ids) or ch.visible_team_ids && mine.ids)))
      limit 1`,
    [clientId, userId],
  ));
