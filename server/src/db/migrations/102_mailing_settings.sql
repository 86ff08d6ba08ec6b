-- Issue 33: an organisation's own opt-out words (a reply that is one of them, alone, stops advertising); no row:
-- the defaults (contracts DEFAULT_OPT_OUT_WORDS).
create table mailing_settings (
  organisation_id uuid primary key references organisations(id) on delete cascade,
  opt_out_words text[] not null,
  updated_at timestamptz not null default now()
);
