-- Issue 29: one phone normaliser (contracts/src/phone.ts, E.164) for every store, so '+7916…', '7916…' and
-- '8 (916) …' are one number. The phones already kept are brought to the same form here, by the same rule: '+' and
-- the digits; without a '+', 11 digits from 8 are the Russian trunk form (+7 and the last ten).
update signups set phone = case
    when btrim(phone) !~ '^\+' and regexp_replace(phone, '\D', '', 'g') ~ '^8[0-9]{10}$'
      then '+7' || substr(regexp_replace(phone, '\D', '', 'g'), 2)
    else '+' || regexp_replace(phone, '\D', '', 'g') end
 where phone ~ '[0-9]';

update landing_requests set phone = case
    when btrim(phone) !~ '^\+' and regexp_replace(phone, '\D', '', 'g') ~ '^8[0-9]{10}$'
      then '+7' || substr(regexp_replace(phone, '\D', '', 'g'), 2)
    else '+' || regexp_replace(phone, '\D', '', 'g') end
 where phone ~ '[0-9]';

update contacts set phone = case
    when btrim(phone) !~ '^\+' and regexp_replace(phone, '\D', '', 'g') ~ '^8[0-9]{10}$'
      then '+7' || substr(regexp_replace(phone, '\D', '', 'g'), 2)
    else '+' || regexp_replace(phone, '\D', '', 'g') end
 where phone ~ '[0-9]';

-- Users keep §3's form 'like 79009009090' (the E.164 number without its '+'; sign-up's administrators had the '+').
-- Unique per organisation: of the rows that become one number, the earliest takes it; the others keep theirs.
with norm as (
  select id, organisation_id, case
      when btrim(phone) !~ '^\+' and regexp_replace(phone, '\D', '', 'g') ~ '^8[0-9]{10}$'
        then '7' || substr(regexp_replace(phone, '\D', '', 'g'), 2)
      else regexp_replace(phone, '\D', '', 'g') end as e164
    from users where phone ~ '[0-9]'
), first as (
  select n.id, n.e164 from norm n
   where n.id = (select min(m.id::text)::uuid from norm m where m.organisation_id = n.organisation_id and m.e164 = n.e164)
     and not exists (select 1 from users o where o.organisation_id = n.organisation_id and o.phone = n.e164 and o.id <> n.id)
)
update users u set phone = first.e164 from first where u.id = first.id and u.phone <> first.e164;

with norm as (
  select id, organisation_id, case
      when btrim(value) !~ '^\+' and regexp_replace(value, '\D', '', 'g') ~ '^8[0-9]{10}$'
        then '+7' || substr(regexp_replace(value, '\D', '', 'g'), 2)
      else '+' || regexp_replace(value, '\D', '', 'g') end as e164
    from client_contacts where kind = 'phone' and value ~ '[0-9]'
), first as (
  select n.id, n.e164 from norm n
   where n.id = (select min(m.id::text)::uuid from norm m where m.organisation_id = n.organisation_id and m.e164 = n.e164)
     and not exists (
       select 1 from client_contacts o
        where o.organisation_id = n.organisation_id and o.kind = 'phone' and o.value = n.e164 and o.id <> n.id)
)
update client_contacts c set value = first.e164 from first where c.id = first.id and c.value <> first.e164;
