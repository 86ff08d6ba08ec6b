-- Issue 34: event webhooks. An organisation subscribes URLs to public event types; each committed event of the
-- durable `events` log that an endpoint subscribes to becomes one delivery row, sent signed and retried for a day.
create table webhook_endpoints (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  url text not null,
  description text not null default '',
  event_types text[] not null,
  -- The signing secret sealed with SECRET_KEY (lib/crypto.ts encryptSecret): we must sign with it, so not a hash.
  secret_sealed text not null,
  enabled boolean not null default true,
  -- 'failing': turned off after a day of failed deliveries; 'manual': by an administrator.
  disabled_reason text check (disabled_reason in ('failing', 'manual')),
  disabled_at timestamptz,
  -- The first failed attempt since the last success; a day of it disables the endpoint.
  failing_since timestamptz,
  -- Only events after this id are sent to it (events written before the endpoint existed are not).
  start_event_id bigint not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_org_idx on webhook_endpoints (organisation_id, created_at);

create table webhook_deliveries (
  id uuid primary key default uuid_generate_v7(),
  endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  -- The `events` row it came from; null for a test event.
  event_id bigint,
  event_type text not null,
  -- The whole signed body, fixed when the delivery is made: every attempt sends the same bytes.
  body text not null,
  status text not null check (status in ('pending', 'delivered', 'failed')),
  attempts int not null default 0,
  next_attempt_at timestamptz,
  -- Automatic retries stop here (a day after the delivery was made).
  retry_until timestamptz not null,
  -- A sender holds the row while it sends (a crashed sender's claim runs out).
  claimed_until timestamptz,
  last_attempt_at timestamptz,
  last_status_code int,
  last_duration_ms int,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz not null default now()
);
-- One delivery per endpoint and event, whatever the dispatcher re-reads.
create unique index webhook_deliveries_event_idx on webhook_deliveries (endpoint_id, event_id) where event_id is not null;
create index webhook_deliveries_log_idx on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending';

-- The dispatcher's place in the events log (one row): every id up to scanned_to was read; `missing` holds the ids
-- below it not seen yet (a transaction that took its id early may still commit), each with when it was first missed.
create table webhook_dispatch (
  id int primary key check (id = 1),
  scanned_to bigint not null,
  missing jsonb not null default '{}'
);
insert into webhook_dispatch (id, scanned_to) select 1, coalesce(max(id), 0) from events;
