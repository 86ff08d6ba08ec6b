-- Reports, the remaining kinds (issue 17): the organisation's time zone, a durable presence log, and rollups for
-- online/break time, missed messages and request categories. The rollups are derived data: they are emptied here
-- and the cursors reset, so the periodic fold rebuilds them from history with the new columns.

-- Reports count days in the organisation's zone (DECISIONS.md: Europe/Moscow by default).
alter table organisations add column time_zone text not null default 'Europe/Moscow';

-- One row per presence change of a user: the state left (`previous`, held since `previous_at`) and the one entered.
create table presence_history (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  presence text not null check (presence in ('online', 'break', 'offline')),
  previous text not null check (previous in ('online', 'break', 'offline')),
  previous_at timestamptz,
  created_at timestamptz not null default now()
);
create index presence_history_org_idx on presence_history (organisation_id, created_at);
create index presence_history_user_idx on presence_history (user_id, created_at);

-- Time in work ('online') and on break per user and UTC hour, folded from closed presence intervals.
create table report_presence_hourly (
  organisation_id uuid not null references organisations(id) on delete cascade,
  hour timestamptz not null,
  user_id uuid not null,
  online_ms bigint not null default 0,
  break_ms bigint not null default 0,
  primary key (organisation_id, hour, user_id)
);

-- Closed requests per channel and category (nil uuid: without a category) and UTC hour of the close.
create table report_category_hourly (
  organisation_id uuid not null references organisations(id) on delete cascade,
  hour timestamptz not null,
  channel_id uuid not null,
  category_id uuid not null,
  requests int not null default 0,
  primary key (organisation_id, hour, channel_id, category_id)
);

-- Missed: client messages of a dialog closed with no operator reply, counted at the close.
alter table report_dialog_hourly add column messages_missed int not null default 0;

alter table report_cursors drop constraint report_cursors_source_check;
alter table report_cursors add constraint report_cursors_source_check
  check (source in ('chat_history', 'messages', 'presence_history'));
insert into report_cursors (source, last_id) values ('presence_history', '00000000-0000-0000-0000-000000000000');

delete from report_dialog_hourly;
delete from report_duration_hist;
update report_cursors set last_id = '00000000-0000-0000-0000-000000000000';
