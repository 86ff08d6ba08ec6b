-- Foundation: organisations, roles, users, teams, sessions and identity tokens.
create or replace function uuid_generate_v7() returns uuid as $$
begin
  return encode(
    set_bit(
      set_bit(
        overlay(uuid_send(gen_random_uuid())
          placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
          from 1 for 6),
        52, 1),
      53, 1),
    'hex')::uuid;
end
$$ language plpgsql volatile;

create table organisations (
  id uuid primary key default uuid_generate_v7(),
  login text not null unique,
  name text not null,
  admin_email text not null,
  status text not null default 'active' check (status in ('active', 'deactivated')),
  language text not null default 'eng' check (language in ('eng', 'rus')),
  instance text,
  tariff_name text not null default 'Extended',
  first_tariff_day date not null default current_date,
  balance numeric(14, 2) not null default 0,
  options text[] not null default '{}',
  operator_licences int not null default 1000,
  is_platform boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table roles (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  description text not null,
  rights text[] not null default '{}',
  built_in text check (built_in in ('OPERATOR', 'SUPERVISOR', 'ADMINISTRATOR')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organisation_id, name)
);
create unique index roles_built_in_uq on roles (organisation_id, built_in) where built_in is not null;

create table users (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  role_id uuid not null references roles(id),
  name text not null,
  email text not null unique,
  phone text,
  password_hash text not null,
  photo_key text,
  break_timeout_minutes int,
  language text not null default 'eng' check (language in ('eng', 'rus')),
  active boolean not null default true,
  presence text not null default 'offline' check (presence in ('online', 'break', 'offline')),
  totp_secret text,
  totp_pending_secret text,
  totp_enabled boolean not null default false,
  last_activity_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index users_org_idx on users (organisation_id, name);
create unique index users_org_phone_uq on users (organisation_id, phone) where phone is not null;

create table teams (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  description text not null,
  distribution_method text not null default 'round_robin'
    check (distribution_method in ('round_robin', 'least_loaded', 'manual')),
  dialog_limit int not null default 5,
  auto_redistribution_minutes int,
  auto_close_minutes int,
  inactivity_hours int not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index teams_org_name_uq on teams (organisation_id, lower(name));

create table team_members (
  organisation_id uuid not null references organisations(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  primary key (team_id, user_id)
);
create index team_members_user_idx on team_members (user_id);

create table sessions (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  token_hash text not null unique,
  pwa boolean not null default false,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index sessions_user_idx on sessions (user_id) where revoked_at is null;

-- Short-lived secrets: a second-factor login ticket or a password recovery link.
create table auth_tickets (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  kind text not null check (kind in ('two_factor', 'recovery')),
  token_hash text not null unique,
  attempts int not null default 0,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);

-- Fixed-window counters for rate limits, shared by every instance.
create table rate_limits (
  key text primary key,
  window_start timestamptz not null,
  hits int not null
);

-- Files (avatars, attachments) are on disk or S3; this row says whose they are and what they are.
create table files (
  key text primary key,
  organisation_id uuid not null references organisations(id) on delete cascade,
  content_type text not null,
  size int not null,
  created_at timestamptz not null default now()
);
