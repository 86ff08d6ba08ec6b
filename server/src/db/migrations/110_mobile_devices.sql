-- Issue 34: the push tokens of the app users of `mobile_app` channels (FCM registration tokens, APNs device tokens),
-- by the app user's id on the channel (the contact's external id). A token names one device of one app: registered
-- again by another user it moves to them. Removed when the provider says it is dead.
create table mobile_devices (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id) on delete cascade,
  client_external_id text not null,
  provider text not null check (provider in ('fcm', 'apns')),
  token text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (channel_id, provider, token)
);
create index mobile_devices_client_idx on mobile_devices (channel_id, client_external_id);
