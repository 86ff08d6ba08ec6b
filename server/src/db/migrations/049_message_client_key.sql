-- Send idempotency: the web composer gives each message a key; a retry after a lost answer carries the same key and
-- must not store a second message. One key per author per chat (the send locks the chat row first, so a repeat
-- waits for the first and finds it; this index is the last word if two ever race past that).
alter table messages add column client_key text;
create unique index messages_client_key_idx on messages (chat_id, author_id, client_key) where client_key is not null;
