-- Chat bot runtime (issue 18). A chat in a bot has one open dialog row: the bot and the version it started on (a
-- chat finishes on that version whatever is published later), the node the bot waits at and the engine's state.
-- The state lives here, so a restart mid-dialog goes on where it was; `last_message_id` is the last client message
-- the bot answered (a retried job finds it and changes nothing).
create table chat_bot_dialogs (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  chat_id uuid not null references chats(id) on delete cascade,
  bot_id uuid not null references chat_bots(id) on delete cascade,
  version integer not null,
  node_id text,
  state jsonb not null,
  -- The last intent the bot recognised in the client's text (GREETING, ...): the chat's intent for routing rules.
  intent text,
  last_message_id uuid,
  started_at timestamptz not null,
  ended_at timestamptz,
  -- How it ended: a final action (close, last_operator, ...), 'operator' taking over, or 'closed' with the chat.
  end_reason text
);
-- One open dialog per chat; the queue skips a chat while it has one.
create unique index chat_bot_dialogs_open_uq on chat_bot_dialogs (chat_id) where ended_at is null;
create index chat_bot_dialogs_chat_idx on chat_bot_dialogs (chat_id, started_at desc);
create index chat_bot_dialogs_org_idx on chat_bot_dialogs (organisation_id, started_at desc);

-- A bot's message names the bot (the chat shows a bot badge); the button a client pressed comes back as `payload`.
alter table messages add column bot_id uuid;
alter table messages add column payload text;

-- A bot's URL button is sent as our tracked link /bot-action/{id}: a click is recorded and redirected to `url`.
create table chat_bot_links (
  id uuid primary key default gen_random_uuid(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  bot_id uuid not null references chat_bots(id) on delete cascade,
  chat_id uuid not null references chats(id) on delete cascade,
  node_id text not null,
  button_id text not null,
  url text not null,
  created_at timestamptz not null,
  clicks integer not null default 0,
  first_clicked_at timestamptz,
  last_clicked_at timestamptz
);
create index chat_bot_links_chat_idx on chat_bot_links (chat_id);
