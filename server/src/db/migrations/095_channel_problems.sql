-- A channel's problems (issue 36): the provider refused its token, could not be reached for a while, or its
-- webhook sends what cannot be read. One open row per channel and kind; repeats move last_seen_at. `opened_at`:
-- since when it counts (an unreachable provider only after a while); administrators see it until it is resolved
-- (the channel works again) or dismissed. `mailed_at`: the channel's notification e-mail was told.
create table channel_problems (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id) on delete cascade,
  kind text not null check (kind in ('token_refused', 'unreachable', 'webhook_failing')),
  detail text not null default '',
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  opened_at timestamptz,
  mailed_at timestamptz,
  dismissed_at timestamptz,
  resolved_at timestamptz
);
create unique index channel_problems_open_idx on channel_problems (channel_id, kind) where resolved_at is null;
create index channel_problems_org_idx on channel_problems (organisation_id) where resolved_at is null;
create index channel_problems_mailed_idx on channel_problems (channel_id, kind, mailed_at);
