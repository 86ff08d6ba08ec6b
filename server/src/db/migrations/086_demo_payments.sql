-- The built-in demo payment page (PAYMENT_PROVIDER=demo, the default while no YooKassa shop is configured): its
-- payments, kept as a provider keeps them. The payer confirms or cancels on /admin/finance/demo-payment/{id}, then
-- the top-up settles through the same path as a provider's notification. No money moves.
create table demo_payments (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  idempotence_key text not null unique,
  amount numeric(14, 2) not null,
  currency text not null,
  description text not null default '',
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'canceled')),
  return_url text not null,
  created_at timestamptz not null default now()
);
create index demo_payments_org_idx on demo_payments (organisation_id);
