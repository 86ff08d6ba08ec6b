-- Channel plugins (ARCHITECTURE.md): each type keeps its own settings (plain) beside its encrypted secrets;
-- what was the API channel's own column moves into its settings.
alter table channels add column settings jsonb not null default '{}';
update channels set settings = jsonb_build_object('webhookUrl', webhook_url) where webhook_url is not null;
alter table channels drop column webhook_url;
-- Only types whose provider presents a key of ours on inbound requests have one (the API channel).
alter table channels alter column inbound_key_hash drop not null;

-- The outbox keeps the message and what happened to it; the adapter renders the provider call when it sends.
alter table outbox add column event text not null default 'message.created'
  check (event in ('message.created', 'message.updated'));
update outbox set event = payload->>'event' where payload->>'event' = 'message.updated';
alter table outbox alter column payload drop not null;

-- A client who blocked the bot or unsubscribed (an opt-out event): replies to them will not be delivered.
alter table contacts add column opted_out_at timestamptz;
