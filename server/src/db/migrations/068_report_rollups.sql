-- Reports: hourly rollups (UTC hour buckets) per organisation x channel x team x operator, maintained from the
-- durable rows (chat_history, messages) behind a stored cursor that moves in the same transaction as the rollups.
-- "No team" / "no operator" is the nil uuid so the key is a plain primary key (no nullable key columns).
create table report_dialog_hourly (
  organisation_id uuid not null references organisations(id) on delete cascade,
  hour timestamptz not null,
  channel_id uuid not null,
  team_id uuid not null,
  operator_id uuid not null,
  dialogs_new int not null default 0,
  dialogs_closed int not null default 0,
  dialogs_transferred int not null default 0,
  first_response_count int not null default 0,
  first_response_sum_ms bigint not null default 0,
  handling_count int not null default 0,
  handling_sum_ms bigint not null default 0,
  rating_1 int not null default 0,
  rating_2 int not null default 0,
  rating_3 int not null default 0,
  rating_4 int not null default 0,
  rating_5 int not null default 0,
  messages_in int not null default 0,
  messages_out int not null default 0,
  primary key (organisation_id, hour, channel_id, team_id, operator_id)
);
create index report_dialog_hourly_operator_idx on report_dialog_hourly (organisation_id, operator_id, hour);

-- Durations as counts per fixed bucket (reports/rollup.ts DURATION_BOUNDS_S), enough for median and p90.
create table report_duration_hist (
  organisation_id uuid not null references organisations(id) on delete cascade,
  hour timestamptz not null,
  channel_id uuid not null,
  team_id uuid not null,
  operator_id uuid not null,
  metric text not null check (metric in ('first_response', 'handling')),
  bucket smallint not null,
  count int not null default 0,
  primary key (organisation_id, hour, channel_id, team_id, operator_id, metric, bucket)
);

-- One cursor per source table: the last row id (uuid v7, time ordered) folded into the rollups.
create table report_cursors (
  source text primary key check (source in ('chat_history', 'messages')),
  last_id uuid not null,
  updated_at timestamptz not null default now()
);
insert into report_cursors (source, last_id) values
  ('chat_history', '00000000-0000-0000-0000-000000000000'),
  ('messages', '00000000-0000-0000-0000-000000000000');
