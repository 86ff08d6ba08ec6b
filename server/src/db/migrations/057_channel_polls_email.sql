-- Pull providers (IMAP): one poll row per channel whose adapter polls. Claimed like timers: a short committed
-- step leases the row to one runner (FOR UPDATE SKIP LOCKED), so one instance at a time reads a mailbox; the
-- adapter's cursor (the IMAP UIDVALIDITY and last UID per mailbox) is stored here, only by the claim's holder.
create table channel_polls (
  channel_id uuid primary key references channels(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  due_at timestamptz not null,
  claimed_by uuid,
  lease_until timestamptz,
  cursor jsonb not null default '{}'::jsonb,
  last_error text,
  updated_at timestamptz not null default now()
);
create index channel_polls_due_idx on channel_polls (due_at);

-- The e-mail channel's headers of each mail in and out: threading (Message-ID, References), the subject of
-- replies, and bounces matched to our outbound message.
create table email_messages (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id) on delete cascade,
  chat_id uuid,
  message_id uuid,
  direction text not null check (direction in ('in', 'out')),
  -- The Message-ID without angle brackets.
  rfc_id text not null,
  client_external_id text not null,
  subject text not null default '',
  refs text[] not null default '{}',
  created_at timestamptz not null default now(),
  unique (channel_id, rfc_id)
);
create index email_messages_chat_idx on email_messages (chat_id, created_at);
create index email_messages_message_idx on email_messages (message_id);
