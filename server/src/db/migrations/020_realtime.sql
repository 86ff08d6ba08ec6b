-- Realtime: which instance holds live sockets of which user (presence across instances),
-- and how far the event log has been pruned (a resume from before that point must resync).
create table realtime_presence (
  instance_id text not null,
  organisation_id uuid not null references organisations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  sockets int not null,
  seen_at timestamptz not null default now(),
  primary key (instance_id, user_id)
);
create index realtime_presence_user_idx on realtime_presence (user_id);
create index realtime_presence_seen_idx on realtime_presence (seen_at);

create table realtime_state (
  key text primary key,
  value bigint not null
);
insert into realtime_state (key, value) values ('events_pruned_through', 0);
