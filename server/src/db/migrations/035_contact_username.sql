-- A client's handle at the provider (a Telegram @username), kept on their contact and shown on the client.
alter table contacts add column username text;
