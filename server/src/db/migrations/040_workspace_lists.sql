-- Operator workspace lists: keyset pages by last activity (coalesce(last_message_at, created_at), id), newest first,
-- for the organisation's lists and for one operator's; and what each user has read of each chat (unread counts).
create index chats_activity_idx on chats (organisation_id, status, (coalesce(last_message_at, created_at)), id);
create index chats_operator_activity_idx on chats (operator_id, status, (coalesce(last_message_at, created_at)), id)
  where operator_id is not null;
-- Expired chats (the channel's 'expired' threshold passed unanswered) of an organisation.
create index chats_expired_idx on chats (organisation_id, (coalesce(last_message_at, created_at)), id)
  where overdue_level = 'expired' and status <> 'closed';

-- The newest message a user has seen of a chat: client messages after it are unread for them.
create table chat_reads (
  chat_id uuid not null references chats(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  read_at timestamptz not null,
  primary key (chat_id, user_id)
);
