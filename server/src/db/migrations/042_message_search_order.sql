-- Extended search answers the newest matches first: for a common word the planner walks an organisation's messages
-- newest first and stops at a page, for a rare one it takes the full-text index (messages_fts_idx) and sorts.
create index messages_org_created_idx on messages (organisation_id, created_at, id);
