-- A team that has handled chats is kept for history and reports when it is deleted: it is marked
-- deleted, loses its members, and its name becomes free for a new team.
alter table teams add column deleted_at timestamptz;
drop index teams_org_name_uq;
create unique index teams_org_name_uq on teams (organisation_id, lower(name)) where deleted_at is null;
