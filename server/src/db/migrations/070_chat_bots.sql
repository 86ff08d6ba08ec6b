-- Chat bots (§3 Chat bot; issue 18). The editor autosaves `draft`; publishing validates it and freezes it as a row of
-- chat_bot_versions. A chat in a bot keeps the version it started on (the runtime's own table says which).
create table chat_bots (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  description text not null default '',
  default_message text not null,
  draft jsonb not null default '{"nodes":[]}',
  published_version integer,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  deleted_at timestamptz
);
-- §8 'chatbot name already exists': unique among the organisation's bots that are not deleted, ignoring case.
create unique index chat_bots_name_uq on chat_bots (organisation_id, lower(name)) where deleted_at is null;
create index chat_bots_org_idx on chat_bots (organisation_id, updated_at desc) where deleted_at is null;

create table chat_bot_versions (
  bot_id uuid not null references chat_bots(id) on delete cascade,
  version integer not null,
  organisation_id uuid not null references organisations(id) on delete cascade,
  graph jsonb not null,
  default_message text not null,
  published_at timestamptz not null,
  published_by uuid,
  primary key (bot_id, version)
);
