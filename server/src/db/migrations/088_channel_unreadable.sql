-- The latest provider update a channel could not read and that named no client to tell (a delivery report of the
-- wrong shape, an update without a sender): the webhook was answered 2xx (providers retry anything else forever),
-- the server logged a warning, and the admin sees when and why on the channel (ChannelDto.lastUnreadable).
-- Updates that do name their client become a visible notice in that client's dialog instead.
alter table channels add column unreadable_at timestamptz;
alter table channels add column unreadable_reason text;
