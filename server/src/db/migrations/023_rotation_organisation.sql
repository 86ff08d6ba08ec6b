-- Every business table carries organisation_id: the round-robin rotation too (filled from its team).
alter table routing_rotation add column organisation_id uuid references organisations(id) on delete cascade;
update routing_rotation rr set organisation_id = t.organisation_id from teams t where t.id = rr.team_id;
alter table routing_rotation alter column organisation_id set not null;
