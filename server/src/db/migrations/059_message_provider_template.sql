-- A message sent as a template registered at the provider (a WhatsApp template outside the 24-hour session):
-- {name, languageCode, variables}; the message's text is the template's body with the variables filled in.
alter table messages add column provider_template jsonb;
