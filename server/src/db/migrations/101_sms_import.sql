-- Issue 33: import from an SMS mailing system. SMS sent through an outside service arrive through a channel of type
-- 'sms' (its export files, its callbacks) and are kept per contact in one closed chat of that channel: a history,
-- never a dialog (the operators' lists and the reports leave it out, as a mailing's own chats).
alter table chats add column imported boolean not null default false;

-- Clients are found by phone across channels (contacts.phone is kept E.164).
create index contacts_org_phone_idx on contacts (organisation_id, phone) where phone is not null;

create table sms_imports (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id) on delete cascade,
  author_id uuid references users(id) on delete set null,
  file_name text not null,
  -- The uploaded bytes in storage while the import may still run (removed once it ends).
  file_key text,
  format text not null check (format in ('csv', 'xlsx')),
  encoding text,
  detected text check (detected in ('smsru', 'smsc', 'remembered', 'given', 'chosen')),
  status text not null check (status in ('mapping', 'running', 'done', 'failed')),
  columns jsonb not null,
  sample jsonb not null,
  -- The header row's signature: the organisation's column choice is remembered by it.
  signature text not null,
  mapping jsonb,
  total_rows int not null,
  processed_rows int not null default 0,
  imported int not null default 0,
  duplicates int not null default 0,
  refused int not null default 0,
  refusals jsonb not null default '[]',
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  finished_at timestamptz
);
create index sms_imports_org_idx on sms_imports (organisation_id, created_at desc);
create index sms_imports_running_idx on sms_imports (channel_id, created_at) where status = 'running';

-- The organisation's choice of columns for a header row it imported before ("chosen once and remembered").
create table sms_import_mappings (
  organisation_id uuid not null references organisations(id) on delete cascade,
  signature text not null,
  mapping jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (organisation_id, signature)
);
