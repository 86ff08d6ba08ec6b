-- Why one of our messages was not delivered (the provider's words, e.g. "Forbidden: bot was blocked by the user").
alter table messages add column status_reason text;
