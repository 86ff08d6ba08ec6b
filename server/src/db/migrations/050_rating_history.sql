-- Service rating in a chat's history: the request (at close, or an operator's before the end) and the client's
-- answer with its score, so the timeline and reports see them.
alter table chat_history drop constraint chat_history_kind_check;
alter table chat_history add constraint chat_history_kind_check check (kind in ('created', 'assign', 'transfer',
  'close', 'auto_close', 'category_set', 'category_removed', 'reopen', 'redistribution', 'unassign', 'takeover',
  'rule', 'rating_requested', 'rated'));
alter table chat_history add column score smallint;
