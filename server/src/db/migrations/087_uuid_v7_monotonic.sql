-- uuid_generate_v7, monotonic within a database session (RFC 9562 §6.2, method 1: a 12-bit counter in rand_a): ids
-- made one after another on one connection sort in the order they were made, even inside one millisecond. Rows
-- written in one transaction share created_at (the transaction's clock) and are listed by (created_at, id): a
-- chat's history (a reopen, then its assignment) and its messages keep their order, on PostgreSQL and on PGlite
-- (whose clock has no sub-millisecond part). The counter restarts at 0 each new millisecond; past 4095 in one
-- millisecond the timestamp moves on by one (as the RFC allows). The first 48 bits stay the Unix milliseconds, so
-- every reader of ids as time (the report cursors' uuidV7Floor) is unchanged; rand_b stays random.
create or replace function uuid_generate_v7() returns uuid as $$
declare
  ms bigint := floor(extract(epoch from clock_timestamp()) * 1000);
  last text := current_setting('smartconnect.uuid_v7_last', true);
  last_ms bigint;
  n int := 0;
  b bytea := uuid_send(gen_random_uuid());
begin
  if last is not null and last <> '' then
    last_ms := split_part(last, ':', 1)::bigint;
    if ms <= last_ms then
      ms := last_ms;
      n := split_part(last, ':', 2)::int + 1;
      if n > 4095 then
        ms := ms + 1;
        n := 0;
      end if;
    end if;
  end if;
  perform set_config('smartconnect.uuid_v7_last', ms::text || ':' || n::text, false);
  b := overlay(b placing substring(int8send(ms) from 3) from 1 for 6);
  -- Version 7 in the high nibble of byte 6, then the counter's 12 bits; gen_random_uuid's variant (10) stays.
  b := set_byte(b, 6, 112 | (n >> 8));
  b := set_byte(b, 7, n & 255);
  return encode(b, 'hex')::uuid;
end
$$ language plpgsql volatile;
