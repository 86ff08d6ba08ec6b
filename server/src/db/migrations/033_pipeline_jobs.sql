-- The conversation pipeline (ARCHITECTURE.md): one durable job per inbound message that needs a decision, enqueued
-- in the ingest transaction, idempotent by message id, claimed by any instance and deleted in the transaction that
-- runs its stages (blacklist -> bot -> rules -> auto-replies -> queue and operator pick).
create table pipeline_jobs (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  kind text not null default 'conversation.inbound',
  message_id uuid not null references messages(id) on delete cascade,
  chat_id uuid not null references chats(id) on delete cascade,
  -- The message opened its chat: the queue stage routes such a chat.
  opened boolean not null default false,
  attempts int not null default 0,
  due_at timestamptz not null default now(),
  claimed_by uuid,
  lease_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  unique (kind, message_id)
);
create index pipeline_jobs_due_idx on pipeline_jobs (due_at);

-- Set while an organisation has automation that must see every client message (routing rules, auto-replies):
-- then every inbound message, not only the first of a chat, goes through the pipeline.
alter table organisations add column inbound_automation boolean not null default false;
