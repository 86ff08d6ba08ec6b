-- Issue 29. A ticket (recovery link, invitation, pending second login step) holds only for the password it was
-- issued under: the stamp is a digest of the password hash at issue, and a ticket whose stamp is not the user's
-- current one is dead. Every path that sets the hash (recovery, own change, an administrator, a script) therefore
-- ends every outstanding link without having to remember to.
alter table auth_tickets add column password_stamp text;
update auth_tickets t set password_stamp = encode(sha256(convert_to(u.password_hash, 'UTF8')), 'hex')
  from users u where u.id = t.user_id;
alter table auth_tickets alter column password_stamp set not null;
create index auth_tickets_user_idx on auth_tickets (user_id, kind) where used_at is null;

-- Failed sign-ins per account (the e-mail as typed, known or not), across addresses: past a threshold a sign-in
-- from an unknown device needs the captcha proof and waits a rising delay; next_at is the earliest such attempt.
create table login_throttle (
  account text primary key,
  failures int not null,
  window_start timestamptz not null,
  next_at timestamptz not null
);
