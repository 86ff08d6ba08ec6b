-- How long an organisation's tariff runs (§9: trial 7 days, extension 14 days; issue 19). Null: no end (the Demo
-- and platform organisations, and organisations created before billing). Sign-up sets it to the trial's end;
-- extensions and the daily tariff charge move it. `billing_mode`: §8's postpaid/prepaid switch.
alter table organisations add column paid_until date;
alter table organisations add column billing_mode text not null default 'prepaid'
  check (billing_mode in ('prepaid', 'postpaid'));
