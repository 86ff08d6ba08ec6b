-- A random identity of this database, written once: instances sharing the database name their Redis
-- pub/sub channel after it (with the server's system identifier and database name), whatever URL they use.
insert into realtime_state (key, value) values ('database_id', floor(random() * 9e15)::bigint);
