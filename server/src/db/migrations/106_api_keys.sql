-- Issue 34: organisation API keys. Only a hash of each key is kept (its first characters for telling keys apart);
-- a rotated key keeps working until expires_at beside its replacement; a revoked one stops at once.
create table api_keys (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  prefix text not null,
  token_hash text not null unique,
  scopes text[] not null,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  last_used_ip text,
  expires_at timestamptz,
  revoked_at timestamptz,
  replaced_by uuid references api_keys(id) on delete set null
);
create index api_keys_org_idx on api_keys (organisation_id, created_at desc);
