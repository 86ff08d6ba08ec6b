-- Web telemetry received by the built-in collector (POST /api/telemetry, issue 20). Installation-wide and anonymous:
-- page route patterns (ids replaced, no query), metric values, no user or organisation. Kept 8 days (vitals) and
-- 7 days (logs, exceptions, events); the collector deletes older rows.
create table web_vitals (
  id bigint generated always as identity primary key,
  received_at timestamptz not null,
  page text not null,
  name text not null check (name in ('FCP', 'LCP', 'CLS', 'INP', 'FID', 'TTFB')),
  value double precision not null,
  rating text not null check (rating in ('good', 'needs-improvement', 'poor')),
  app_version text
);
create index web_vitals_received_idx on web_vitals (received_at);

create table telemetry_items (
  id bigint generated always as identity primary key,
  received_at timestamptz not null,
  kind text not null check (kind in ('log', 'exception', 'event')),
  page text not null,
  body jsonb not null
);
create index telemetry_items_received_idx on telemetry_items (received_at);
