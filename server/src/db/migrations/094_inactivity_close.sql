-- A chat closed on inactivity (§4: no message from either side for the team's inactivity time, §3).
alter table chat_history drop constraint chat_history_kind_check;
alter table chat_history add constraint chat_history_kind_check check (kind in ('created', 'assign', 'transfer',
  'close', 'auto_close', 'category_set', 'category_removed', 'reopen', 'redistribution', 'unassign', 'takeover',
  'rule', 'rating_requested', 'rated', 'inactivity_close'));
