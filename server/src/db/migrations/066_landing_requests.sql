-- Trial requests from the public landing page (§2.2, §3 Landing request: name, phone, company; issue 19).
-- Installation-wide, not an organisation's: the visitor has none yet. Platform staff (RIGHT_OBSERVER) read them.
create table landing_requests (
  id uuid primary key default gen_random_uuid(),
  phone text not null,
  name text,
  company text,
  form text not null check (form in ('short', 'long', 'modal')),
  language text not null check (language in ('eng', 'rus')),
  created_at timestamptz not null
);
create index landing_requests_created_idx on landing_requests (created_at desc, id desc);
