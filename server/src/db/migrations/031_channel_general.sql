-- The general tab of a channel (§3): an e-mail for its notifications, the teams that see it besides its own,
-- and the service assessment: whether the client may rate the service before the dialog ends, and the request's text.
alter table channels add column notification_email text;
alter table channels add column visible_team_ids uuid[] not null default '{}';
alter table channels add column rating_before_end boolean not null default false;
alter table channels add column rating_message text;
