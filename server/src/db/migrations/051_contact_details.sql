-- What a client told us about themselves on a channel (the site chat's optional introduction form): an e-mail and
-- a phone beside the channel identity. Client profiles (their own phones and e-mails) are a later, separate model.
alter table contacts add column email text;
alter table contacts add column phone text;
