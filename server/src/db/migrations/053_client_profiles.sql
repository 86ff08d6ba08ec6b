-- Client profiles (issue 14): customer statuses of the 13-colour palette, outer companies, phones and e-mails,
-- tags, extra fields, comments, the session status, spam mark, blacklist and the profile's history (merges).
create table client_statuses (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  color text not null check (color in ('light_blue', 'green', 'red', 'orange', 'light_green', 'gray', 'dark_blue',
    'pink', 'brown', 'blue', 'black', 'yellow', 'violet')),
  created_at timestamptz not null default now()
);
create unique index client_statuses_name_uq on client_statuses (organisation_id, lower(name));

create table companies (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now()
);
create unique index companies_name_uq on companies (organisation_id, lower(name));
create index companies_search_idx on companies (organisation_id, lower(name) text_pattern_ops);

-- A status set on a client cannot be deleted (the service answers 409 first; the key is the last word).
alter table clients add column status_id uuid references client_statuses(id) on delete restrict;
alter table clients add column spam boolean not null default false;
alter table clients add column session_status text check (session_status in ('NEW', 'POTENTIAL_CLIENT',
  'CONTACT_LATER', 'COMPLETED', 'NOT_OUR_CLIENT', 'REFUSAL'));
alter table clients add column tags text[] not null default '{}';
alter table clients add column fields jsonb not null default '[]';
alter table clients add column blocked_at timestamptz;
alter table clients add column blocked_by uuid references users(id) on delete set null;

-- The clients list: newest first by id (keyset), a name's beginning, a tag, a status, a manager, the blacklist.
create index clients_org_id_idx on clients (organisation_id, id);
create index clients_org_lname_idx on clients (organisation_id, lower(name) text_pattern_ops);
create index clients_tags_idx on clients using gin (tags);
create index clients_status_idx on clients (status_id, id) where status_id is not null;
create index clients_manager_idx on clients (personal_manager_id, id) where personal_manager_id is not null;
create index clients_blocked_idx on clients (organisation_id, blocked_at) where blocked_at is not null;

create table client_company_links (
  organisation_id uuid not null references organisations(id) on delete cascade,
  client_id uuid not null references clients(id) on delete cascade,
  company_id uuid not null references companies(id) on delete cascade,
  primary key (client_id, company_id)
);
create index client_company_links_company_idx on client_company_links (company_id, client_id);

-- A client's own phones and e-mails (normalised): one owner per value in an organisation.
create table client_contacts (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  client_id uuid not null references clients(id) on delete cascade,
  kind text not null check (kind in ('phone', 'email')),
  value text not null,
  created_at timestamptz not null default now(),
  unique (organisation_id, kind, value)
);
create index client_contacts_client_idx on client_contacts (client_id);

create table client_comments (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  client_id uuid not null references clients(id) on delete cascade,
  author_id uuid references users(id) on delete set null,
  text text not null,
  created_at timestamptz not null default now()
);
create index client_comments_client_idx on client_comments (client_id, created_at);

create table client_history (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  client_id uuid not null references clients(id) on delete cascade,
  kind text not null check (kind in ('merged', 'blocked', 'unblocked')),
  actor_id uuid references users(id) on delete set null,
  data jsonb not null default '{}',
  created_at timestamptz not null default now()
);
create index client_history_client_idx on client_history (client_id, created_at);
