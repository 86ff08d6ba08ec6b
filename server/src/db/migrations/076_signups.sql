-- Self-service sign-up (§2.5, issue 19): a registration in progress and the captcha solutions already spent.
-- Installation-wide, not an organisation's: the organisation is only created when both codes are confirmed.
create table signups (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique,
  company text not null,
  email text not null,
  phone text not null,
  language text not null check (language in ('eng', 'rus')),
  stage text not null check (stage in ('email', 'phone', 'done')),
  -- The current stage's code (hashed), when it stops working and how many wrong tries it has had.
  code_hash text,
  code_expires_at timestamptz,
  code_attempts int not null default 0,
  codes_sent int not null default 0,
  code_sent_at timestamptz,
  organisation_login text,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index signups_expires_idx on signups (expires_at);

-- An ALTCHA solution is good once: its signature is kept until the challenge would have expired anyway.
create table captcha_uses (
  signature text primary key,
  expires_at timestamptz not null
);
create index captcha_uses_expires_idx on captcha_uses (expires_at);
