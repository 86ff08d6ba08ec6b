-- Monthly acts for the daily tariff charges (issue 19): one act per organisation and calendar month, summing that
-- month's charges. `period` is the month's first day; the unique index makes the act exactly once, whichever
-- instance or restart issues it. Top-up documents keep `period` null.
alter table billing_documents add column period date;
create unique index billing_documents_period_uq on billing_documents (organisation_id, kind, period)
  where period is not null;
-- The acts' job reads the succeeded charges of the last months.
create index payments_charges_by_day_idx on payments (charge_day) where kind = 'charge' and status = 'succeeded';

-- Suspension for non-payment: set when a prepaid organisation's paid days ran out and the day's charge could not be
-- taken (or it has no plan to pay for); cleared when a charge is taken, the days are extended or it turns postpaid.
-- Operators cannot take or answer chats meanwhile; inbound messages are still stored.
alter table organisations add column suspended_at timestamptz;
