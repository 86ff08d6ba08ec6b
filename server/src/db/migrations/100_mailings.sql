-- Mailings (issue 33): one message sent to an audience of a channel's contacts, throttled to the provider's rate.
create table mailings (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  channel_id uuid not null references channels(id) on delete cascade,
  marketing_type text not null check (marketing_type in ('service', 'advertising')),
  text text not null default '',
  attachments jsonb not null default '[]'::jsonb,
  -- A WhatsApp template {name, languageCode, variables}: what may be sent outside the 24-hour window.
  template jsonb,
  audience jsonb not null default '{}'::jsonb,
  status text not null default 'draft'
    check (status in ('draft', 'scheduled', 'sending', 'paused', 'finished', 'cancelled')),
  pause_reason text check (pause_reason in ('author', 'channel_inactive')),
  scheduled_at timestamptz,
  -- The send window, minutes of the local day (the organisation's time zone); both null: any time.
  window_from smallint,
  window_to smallint,
  rate_per_second int,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index mailings_org_idx on mailings (organisation_id, created_at desc);
create index mailings_active_idx on mailings (channel_id, started_at) where status in ('scheduled', 'sending');

-- Each recipient of a started mailing, planned once at its start: sent to exactly once (the row moves from
-- pending to sent in the transaction that writes the message and its outbox row), or skipped with the reason.
create table mailing_recipients (
  mailing_id uuid not null references mailings(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  contact_id uuid not null references contacts(id) on delete cascade,
  client_id uuid not null,
  state text not null default 'pending' check (state in ('pending', 'skipped', 'sent')),
  skip_reason text,
  message_id uuid,
  sent_at timestamptz,
  replied_at timestamptz,
  opted_out_at timestamptz,
  primary key (mailing_id, contact_id)
);
create index mailing_recipients_pending_idx on mailing_recipients (mailing_id, contact_id) where state = 'pending';
-- A reply finds the latest mailing its contact was sent.
create index mailing_recipients_contact_idx on mailing_recipients (contact_id, sent_at desc) where state = 'sent';

-- A client who answered an opt-out word (or was marked so) receives no advertising mailing.
alter table clients add column advertising_opted_out_at timestamptz;

-- A chat that only holds a mailing's message (created closed: not a dialog, not in the operators' lists).
alter table chats add column mailing_id uuid references mailings(id) on delete set null;

-- Background sessions per channel of more than one kind: 'inbound' (pull providers, as before) and 'mailing'
-- (the mailing sender, one per channel so the provider's rate is kept across instances).
alter table channel_polls add column kind text not null default 'inbound';
alter table channel_polls drop constraint channel_polls_pkey;
alter table channel_polls add primary key (channel_id, kind);

-- The right and the plan option (see DECISIONS.md "Mailings"): the built-in Supervisor and Administrator roles,
-- the Extended plan and the organisations that hold every earlier option.
update roles set rights = array_append(rights, 'AUTHORITY_MAILING')
 where built_in in ('SUPERVISOR', 'ADMINISTRATOR') and not ('AUTHORITY_MAILING' = any(rights));
update plans set options = array_append(options, 'OPTION_MAILING')
 where name = 'Extended' and not ('OPTION_MAILING' = any(options));
update organisations set options = array_append(options, 'OPTION_MAILING')
 where not ('OPTION_MAILING' = any(options))
   and (plan_id in (select id from plans where name = 'Extended')
        or options @> array['OPTION_STATISTIC', 'OPTION_API', 'OPTION_CHAT_BOT', 'OPTION_ONLINE_MONITORING']);
