-- Conversation engine: channels, clients and their contacts, chats, messages, history,
-- request categories, durable timers and the outbound delivery outbox.

create table channels (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  type text not null,
  name text not null,
  team_id uuid not null references teams(id),
  status text not null default 'active' check (status in ('active', 'inactive')),
  webhook_url text,
  -- The inbound key is shown once at creation; only its SHA-256 is kept.
  inbound_key_hash text not null unique,
  -- Provider credentials and our signing secret, encrypted with SECRET_KEY (lib/crypto encryptSecret).
  secrets text not null,
  half_expired_minutes int,
  expired_minutes int,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index channels_org_idx on channels (organisation_id) where deleted_at is null;
create unique index channels_org_name_uq on channels (organisation_id, lower(name)) where deleted_at is null;

create table clients (
  id uuid primary key,
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  personal_manager_id uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index clients_org_idx on clients (organisation_id, name);

-- A client's identity on one channel. The client row is created in the same transaction with the
-- id chosen here, so the foreign key is checked at commit.
create table contacts (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id),
  client_id uuid not null references clients(id) on delete cascade deferrable initially deferred,
  external_id text not null,
  name text not null,
  created_at timestamptz not null default now(),
  unique (channel_id, external_id)
);
create index contacts_client_idx on contacts (client_id);

create table request_categories (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index request_categories_name_uq on request_categories (organisation_id, lower(name));

create table chats (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id),
  client_id uuid not null references clients(id) on delete cascade deferrable initially deferred,
  contact_id uuid not null references contacts(id) on delete cascade,
  team_id uuid not null references teams(id),
  operator_id uuid references users(id) on delete set null,
  category_id uuid references request_categories(id) on delete set null,
  status text not null default 'waiting' check (status in ('waiting', 'in_progress', 'closed')),
  session_no int not null default 1,
  overdue_level text not null default 'none' check (overdue_level in ('none', 'half_expired', 'expired')),
  assigned_at timestamptz,
  closed_at timestamptz,
  last_client_message_at timestamptz,
  last_operator_message_at timestamptz,
  -- The oldest client message no operator has answered yet: overdue thresholds count from it.
  unanswered_since timestamptz,
  last_message_text text,
  last_message_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- At most one open chat per client and channel: a concurrent first message cannot open two.
create unique index chats_open_uq on chats (channel_id, contact_id) where status <> 'closed';
create index chats_org_status_idx on chats (organisation_id, status, team_id);
create index chats_operator_idx on chats (operator_id, status) where operator_id is not null;
create index chats_client_idx on chats (client_id, created_at);

create table messages (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  chat_id uuid not null references chats(id) on delete cascade,
  channel_id uuid not null references channels(id),
  direction text not null check (direction in ('in', 'out')),
  kind text not null default 'normal' check (kind in ('normal', 'internal', 'mailing', 'edited')),
  internal boolean not null default false,
  text text not null,
  attachments jsonb not null default '[]',
  status text check (status in ('pending', 'sent', 'delivered', 'read', 'undelivered')),
  author_id uuid references users(id) on delete set null,
  external_message_id text,
  edited_at timestamptz,
  created_at timestamptz not null default now(),
  -- A provider's retry of the same message is one row (ingest dedupe).
  unique (channel_id, external_message_id)
);
create index messages_chat_idx on messages (chat_id, created_at, id);

create table chat_history (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  chat_id uuid not null references chats(id) on delete cascade,
  kind text not null check (kind in ('created', 'assign', 'transfer', 'close', 'auto_close', 'category_set',
    'category_removed', 'reopen', 'redistribution', 'unassign')),
  actor_id uuid references users(id) on delete set null,
  from_user_id uuid references users(id) on delete set null,
  to_user_id uuid references users(id) on delete set null,
  from_team_id uuid references teams(id) on delete set null,
  to_team_id uuid references teams(id) on delete set null,
  category_id uuid references request_categories(id) on delete set null,
  created_at timestamptz not null default now()
);
create index chat_history_chat_idx on chat_history (chat_id, created_at);
create index chat_history_to_user_idx on chat_history (to_user_id) where to_user_id is not null;

-- Round-robin memory: the turn (a global sequence) at which each operator last received a chat of a team.
create sequence routing_turn_seq;
create table routing_rotation (
  team_id uuid not null references teams(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  last_turn bigint not null,
  primary key (team_id, user_id)
);

-- Durable timers: one row per (kind, subject), claimed by exactly one instance with SKIP LOCKED.
create table timers (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  kind text not null,
  subject_id uuid not null,
  due_at timestamptz not null,
  created_at timestamptz not null default now(),
  unique (kind, subject_id)
);
create index timers_due_idx on timers (due_at);

-- Outbound deliveries to providers, written with the message; the dispatcher sends after commit.
create table outbox (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id),
  message_id uuid references messages(id) on delete cascade,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'done', 'failed')),
  attempts int not null default 0,
  next_attempt_at timestamptz not null,
  last_error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index outbox_due_idx on outbox (next_attempt_at) where status = 'pending';

alter table users add column presence_changed_at timestamptz;
