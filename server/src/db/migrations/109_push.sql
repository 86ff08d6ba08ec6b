-- Issue 34: web push for operators. A user's browsers subscribed with the installation's VAPID key (one row per
-- browser endpoint in an organisation: whoever subscribed it last receives on it), what each user wants pushed,
-- and the VAPID key pair itself when the environment gives none (made once, shared by every instance).
create table push_subscriptions (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  user_agent text,
  created_at timestamptz not null default now(),
  last_success_at timestamptz,
  failures int not null default 0,
  unique (organisation_id, endpoint)
);
create index push_subscriptions_user_idx on push_subscriptions (user_id, created_at);

create table push_settings (
  user_id uuid primary key references users(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  new_chats boolean not null default true,
  new_messages boolean not null default true,
  updated_at timestamptz not null default now()
);

create table push_vapid (
  id int primary key check (id = 1),
  public_key text not null,
  -- Sealed with SECRET_KEY (lib/crypto.ts), as channel secrets are.
  private_key text not null,
  created_at timestamptz not null default now()
);
