-- Issue 33: a channel's daily limit of different recipients (WhatsApp's messaging limit tier: business-initiated
-- conversations with at most N different clients in a rolling 24 hours). A mailing held back by it says until when.
alter table mailings add column limit_wait_until timestamptz;
