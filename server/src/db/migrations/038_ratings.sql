-- Service rating (quality assessment): a channel asks its clients to rate a closed dialog when this is on.
alter table channels add column rating_enabled boolean not null default false;

-- One request per chat session (a client is asked once per session), answered through its one-time link
-- /link-action/{id} or the widget's buttons. The id is random (v4): the link is the client's only credential.
create table rating_requests (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  chat_id uuid not null references chats(id) on delete cascade,
  channel_id uuid not null references channels(id),
  session_no int not null,
  score smallint check (score between 1 and 5),
  rated_at timestamptz,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  unique (chat_id, session_no)
);
create index rating_requests_org_idx on rating_requests (organisation_id, rated_at) where score is not null;
