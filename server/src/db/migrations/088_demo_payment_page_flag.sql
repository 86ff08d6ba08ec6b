-- The built-in demo payment page is no longer every organisation's default provider (an organisation could credit
-- its own balance): without a YooKassa shop, and without PAYMENT_PROVIDER=demo, only an organisation carrying this
-- flag gets it. The first-start seed sets it on the Demo organisation; sign-up never does.
alter table organisations add column demo_payment_page boolean not null default false;
-- An installation seeded before this flag: its Demo organisation is the first one created, with the seed's login.
update organisations set demo_payment_page = true
 where login = 'demo' and not is_platform
   and id = (select id from organisations order by created_at, id limit 1);
