-- Routing rules (§3 Routing rule): tried in `position` order for a chat that needs routing; the default rule
-- (one per organisation, lowest priority, listed last) leaves the chat in its channel's team and cannot change.
create table routing_rules (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  -- {clients, channelIds, messageType, marketingType, intentsInclude, intentsExclude}, normalised (sorted lists).
  conditions jsonb not null,
  -- The conditions as one canonical text: two rules of an organisation never share it (§8 'already exists').
  conditions_key text not null,
  -- {type, teamId?, botId?}
  action jsonb not null,
  enabled boolean not null default true,
  is_default boolean not null default false,
  position integer not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index routing_rules_default_idx on routing_rules (organisation_id) where is_default;
create unique index routing_rules_conditions_idx on routing_rules (organisation_id, conditions_key) where not is_default;
create index routing_rules_org_idx on routing_rules (organisation_id, position);

insert into routing_rules (organisation_id, name, conditions, conditions_key, action, is_default, position)
select id, 'Default rule',
       '{"clients":"any","channelIds":[],"messageType":"client","marketingType":null,"intentsInclude":[],"intentsExclude":[]}',
       'default', '{"type":"team"}', true, 2147483647
  from organisations
on conflict do nothing;

-- The chat's history names the rule that routed it (kind 'rule'); the name is kept as it was then.
alter table chat_history add column rule_id uuid references routing_rules(id) on delete set null;
alter table chat_history add column rule_name text;
alter table chat_history drop constraint chat_history_kind_check;
alter table chat_history add constraint chat_history_kind_check check (kind in ('created', 'assign', 'transfer',
  'close', 'auto_close', 'category_set', 'category_removed', 'reopen', 'redistribution', 'unassign', 'takeover',
  'rule'));
