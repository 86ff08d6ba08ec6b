-- Extended search: full-text index of message texts. The 'russian' configuration stems Russian words (Snowball
-- russian) and Latin ones with the English stemmer, so one index serves both languages (PGlite and PostgreSQL).
create index messages_fts_idx on messages using gin (to_tsvector('russian', text));
