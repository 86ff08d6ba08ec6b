-- Reports over months: daily rollups per local day of the organisation's time zone (organisations.time_zone), next
-- to the hourly ones, so a year's report reads 366 rows per key instead of 8,784. Reports in the organisation's zone
-- read them (a report's period is whole local days); a report in another zone reads the hourly rows. The fold adds
-- to both in one transaction; a change of the organisation's zone rebuilds its daily rows from the hourly ones.
create table report_dialog_daily (
  organisation_id uuid not null references organisations(id) on delete cascade,
  day date not null,
  channel_id uuid not null,
  team_id uuid not null,
  operator_id uuid not null,
  dialogs_new int not null default 0,
  dialogs_closed int not null default 0,
  dialogs_transferred int not null default 0,
  first_response_count int not null default 0,
  first_response_sum_ms bigint not null default 0,
  handling_count int not null default 0,
  handling_sum_ms bigint not null default 0,
  rating_1 int not null default 0,
  rating_2 int not null default 0,
  rating_3 int not null default 0,
  rating_4 int not null default 0,
  rating_5 int not null default 0,
  messages_in int not null default 0,
  messages_out int not null default 0,
  messages_missed int not null default 0,
  primary key (organisation_id, day, channel_id, team_id, operator_id)
);

create table report_duration_daily (
  organisation_id uuid not null references organisations(id) on delete cascade,
  day date not null,
  channel_id uuid not null,
  team_id uuid not null,
  operator_id uuid not null,
  metric text not null check (metric in ('first_response', 'handling')),
  bucket smallint not null,
  count int not null default 0,
  primary key (organisation_id, day, channel_id, team_id, operator_id, metric, bucket)
);

insert into report_dialog_daily
select h.organisation_id, (h.hour at time zone o.time_zone)::date, h.channel_id, h.team_id, h.operator_id,
       sum(dialogs_new), sum(dialogs_closed), sum(dialogs_transferred), sum(first_response_count),
       sum(first_response_sum_ms), sum(handling_count), sum(handling_sum_ms), sum(rating_1), sum(rating_2),
       sum(rating_3), sum(rating_4), sum(rating_5), sum(messages_in), sum(messages_out), sum(messages_missed)
  from report_dialog_hourly h join organisations o on o.id = h.organisation_id
 group by 1, 2, 3, 4, 5;
insert into report_duration_daily
select h.organisation_id, (h.hour at time zone o.time_zone)::date, h.channel_id, h.team_id, h.operator_id, h.metric,
       h.bucket, sum(h.count)
  from report_duration_hist h join organisations o on o.id = h.organisation_id
 group by 1, 2, 3, 4, 5, 6, 7;
