-- Billing (issue 19): plans (tariffs), payments (top-ups and daily tariff charges) and billing documents.

-- Installation-wide: the platform's staff keep the price list; organisations point at one plan.
create table plans (
  id uuid primary key default uuid_generate_v7(),
  name text not null unique,
  price numeric(14, 2) not null check (price >= 0),
  operator_licences int not null check (operator_licences >= 0),
  accounts_max int check (accounts_max >= 0),
  options text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

alter table organisations add column plan_id uuid references plans(id);

-- Transactions of §3 Finance records. A top-up is pending until the provider confirms it; a daily charge is one row
-- per organisation and day (the unique index makes the charge exactly once, whichever instance or restart runs it).
create table payments (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  kind text not null check (kind in ('top_up', 'charge', 'adjustment')),
  status text not null check (status in ('pending', 'succeeded', 'canceled')),
  amount numeric(14, 2) not null,
  currency text not null default 'RUB',
  notes text not null default '',
  provider_payment_id text unique,
  idempotence_key text unique,
  confirmation_url text,
  charge_day date,
  created_at timestamptz not null default now(),
  settled_at timestamptz
);
create index payments_org_idx on payments (organisation_id, created_at desc);
create unique index payments_daily_charge_uq on payments (organisation_id, charge_day) where kind = 'charge';

create sequence billing_document_numbers;
create table billing_documents (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  payment_id uuid references payments(id) on delete set null,
  kind text not null check (kind in ('act', 'invoice', 'factura')),
  number text not null unique,
  sum numeric(14, 2) not null,
  vat numeric(14, 2) not null,
  paid boolean not null default false,
  release_date date not null,
  created_at timestamptz not null default now()
);
create index billing_documents_org_idx on billing_documents (organisation_id, created_at desc);
create unique index billing_documents_payment_kind_uq on billing_documents (payment_id, kind);

-- The starting price list (§9 'Statistics only in the extended tariff'). Organisations created before plans keep
-- their own options and licences (plan_id null) until staff choose a plan.
insert into plans (name, price, operator_licences, accounts_max, options) values
  ('Basic', 3000, 5, 20, array['OPTION_ROUTING', 'OPTION_TEMPLATE', 'OPTION_CATEGORY', 'OPTION_COMMENT',
    'OPTION_PROFILE', 'OPTION_AUTO_REPLY', 'OPTION_EXPIRING']),
  ('Extended', 9000, 20, 100, array['OPTION_ROUTING', 'OPTION_EXPIRING', 'OPTION_QUALITY_ASSESSMENT',
    'OPTION_AUTO_REPLY', 'OPTION_API', 'OPTION_CHAT_BOT', 'OPTION_PROFILE_SESSION_HISTORY',
    'OPTION_ONLINE_MONITORING', 'OPTION_PROFILE', 'OPTION_TEMPLATE', 'OPTION_CATEGORY', 'OPTION_COMMENT',
    'OPTION_EXTENDED_SEARCH', 'OPTION_PROFILE_STATUS', 'OPTION_STATISTIC']);
