-- The site-chat widget: a visitor's uploaded files are theirs alone to attach (the key names the uploader).
create table widget_files (
  key text primary key references files(key) on delete cascade,
  organisation_id uuid not null references organisations(id) on delete cascade,
  channel_id uuid not null references channels(id) on delete cascade,
  visitor_id text not null,
  name text,
  created_at timestamptz not null default now()
);
