-- Timers are claimed in a short committed step (a lease) and fired in a transaction of their own that locks
-- the chat or user first, as every operation does: no lock cycle between the runner and operations.
-- A claimed timer is left alone until its lease ends; if its instance dies another one fires it then.
alter table timers add column claimed_by uuid, add column lease_until timestamptz;
