-- Every state change that users must see is written here in the same transaction as the change:
-- it is the outbox the realtime bus publishes after commit, and the log a reconnecting socket resumes from.
create table events (
  id bigserial primary key,
  organisation_id uuid not null references organisations(id) on delete cascade,
  type text not null,
  payload jsonb not null,
  audience jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index events_org_idx on events (organisation_id, id);
