-- A supervisor or administrator (AUTHORITY_ALL_CHATS) takes over a chat another operator is handling: its own
-- history kind, so reports and the timeline tell it from a transfer.
alter table chat_history drop constraint chat_history_kind_check;
alter table chat_history add constraint chat_history_kind_check check (kind in ('created', 'assign', 'transfer',
  'close', 'auto_close', 'category_set', 'category_removed', 'reopen', 'redistribution', 'unassign', 'takeover'));
