-- A chat's pipeline jobs run in the order of their messages: uuid v7 ids of one millisecond are not ordered, so a
-- job carries its message's arrival stamp (messages.created_at, strictly increasing per chat). A job waits while an
-- earlier job of its chat is pending (a bot must see a chat's messages in order, even when one failed).
alter table pipeline_jobs add column message_at timestamptz;
update pipeline_jobs j set message_at = m.created_at from messages m where m.id = j.message_id;
update pipeline_jobs set message_at = created_at where message_at is null;
alter table pipeline_jobs alter column message_at set not null;
create index pipeline_jobs_chat_idx on pipeline_jobs (chat_id, message_at);
-- Jobs are looked up by their messages: the message id leads the unique key (with the kind first, a planner misled
-- by a churning table's stale statistics scanned every job of the kind).
alter table pipeline_jobs drop constraint pipeline_jobs_kind_message_id_key;
alter table pipeline_jobs add constraint pipeline_jobs_message_kind_key unique (message_id, kind);
