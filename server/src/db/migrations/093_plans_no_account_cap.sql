-- Issue 36: the landing page promises unlimited users, and §6 limits only simultaneous online operators (the
-- licences). The starting plans capped accounts at 20 and 100; they no longer do. A plan staff give a cap keeps it
-- (§8 'quota exceeded for login').
update plans set accounts_max = null, updated_at = now()
 where name in ('Basic', 'Extended') and accounts_max in (20, 100);
