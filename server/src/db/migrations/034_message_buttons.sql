-- Buttons a message carries (a chat bot's reply): rows of {text, payload} postbacks and {text, url} links, as
-- contracts' buttonRowsSchema validates them; null when the message has none.
alter table messages add column buttons jsonb;
