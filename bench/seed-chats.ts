import { createOrganisation, type TestServer } from '../server/test/helpers.ts';

/**
 * The workspace benches' organisation: a team 'Bench', its operator, an API channel, and `chats` chats seeded in SQL
 * (a quarter Waiting, a quarter In progress of the operator, half Closed; last activity over the past 30 days).
 */
export async function seedWorkspace(s: TestServer, chats: number) {
  const org = await createOrganisation(s);
  const team = await org.admin.api.post('/api/teams', { name: 'Bench', description: 'Bench', memberIds: [] });
  const teamId = team.body.entity.id as string;
  const op = await org.user({ teams: [teamId], name: 'Operator' });
  const ch = await org.admin.api.post('/api/channels', {
    type: 'api',
    name: 'Bench',
    teamId,
    webhookUrl: 'http://127.0.0.1:9/none',
  });
  const channelId = ch.body.entity.id as string;
  await s.db.query(
    `with c as (
       insert into clients (id, organisation_id, name)
       select uuid_generate_v7(), $1, 'Client ' || g from generate_series(1, $4::int) g returning id, name
     ), ct as (
       insert into contacts (organisation_id, channel_id, client_id, external_id, name)
       select $1, $2, c.id, c.name, c.name from c returning id, client_id
     )
     insert into chats (organisation_id, channel_id, client_id, contact_id, team_id, status, operator_id, assigned_at,
                        closed_at, last_message_at, last_message_text, created_at)
     select $1, $2, ct.client_id, ct.id, $3, st, case when st = 'waiting' then null else $5::uuid end,
            case when st = 'waiting' then null else now() end, case when st = 'closed' then now() end,
            now() - random() * interval '30 days', 'last words', now() - interval '31 days'
       from (select ct.*, (array['waiting', 'in_progress', 'closed', 'closed'])[1 + (random() * 3)::int] as st
               from ct) ct`,
    [org.id, channelId, teamId, chats, op.id],
  );
  return { org, teamId, op, channelId, inboundKey: String(ch.body.entity.inboundKey) };
}
