-- Which automation of an organisation needs every client message to pass the pipeline (routing rules,
-- auto-replies, bots): one row per (organisation, source) while that source is switched on. The organisation's
-- inbound_automation flag, read by the ingest statement, is kept equal to "any row exists" by
-- organisations/automation.ts, so modules never overwrite each other's need.
create table organisation_automation (
  organisation_id uuid not null references organisations(id) on delete cascade,
  source text not null,
  primary key (organisation_id, source)
);
