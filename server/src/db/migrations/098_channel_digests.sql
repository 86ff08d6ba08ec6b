-- The daily digest of a channel's missed chats (issue 36): one row per channel and local day of the organisation,
-- claimed before the mail goes out so two instances or a restart never send it twice. `missed`: how many chats it
-- listed (0: nothing was missed, no mail was sent).
create table channel_digests (
  channel_id uuid not null references channels(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  day date not null,
  missed int not null default 0,
  created_at timestamptz not null default now(),
  primary key (channel_id, day)
);
