-- Transfer to a chat bot (§4, issue 18): an operator hands the chat back to a published bot. The history's
-- 'transfer' event names the bot (its name as it was then; the id is null once the bot is gone).
alter table chat_history add column to_bot_id uuid references chat_bots(id) on delete set null;
alter table chat_history add column bot_name text;
