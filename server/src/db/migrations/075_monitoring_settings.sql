-- Monitoring (issue 17): each user's column settings per live table (which columns are shown, in which order).
create table monitoring_settings (
  organisation_id uuid not null references organisations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  view text not null check (view in ('channels', 'teams', 'operators', 'abonents')),
  -- [{"key": "name", "visible": true}, ...] in the order shown.
  columns jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, view)
);
create index monitoring_settings_org_idx on monitoring_settings (organisation_id);
