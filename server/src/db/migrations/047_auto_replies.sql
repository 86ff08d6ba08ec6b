-- §3 Auto-replies, per channel: when operators are online, when offline, the dialog rating request, and the holding
-- phrase after 1, 2 or 5 minutes without an operator answer. No row: every reply is off.
create table channel_auto_replies (
  channel_id uuid primary key references channels(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  online_enabled boolean not null default false,
  online_text text not null default '',
  offline_enabled boolean not null default false,
  offline_text text not null default '',
  rating_enabled boolean not null default false,
  rating_text text not null default '',
  holding_enabled boolean not null default false,
  holding_text text not null default '',
  holding_wait_minutes int not null default 2 check (holding_wait_minutes in (1, 2, 5)),
  updated_at timestamptz not null default now()
);
create index channel_auto_replies_org_idx on channel_auto_replies (organisation_id);

-- What a chat session's waiting periods were already given. A period is the stretch of client messages after the
-- operator's latest answer (its message id; the chat's own id before any answer): each reply goes at most once in it.
create table chat_auto_replies (
  chat_id uuid primary key references chats(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  -- The period whose online or offline reply was sent (or left out: the occasion has passed).
  presence_period uuid,
  -- The period the holding timer was armed for (later messages of the period do not move it).
  holding_period uuid,
  -- The period whose holding phrase was sent.
  holding_sent_period uuid
);
