-- Issue 35: what a marketplace conversation is about (the Avito listing, the Ozon posting, the Yandex Market order):
-- {kind, id, title, url}, set from the provider's messages, shown in the chat's top bar and the client panel.
alter table chats add column topic jsonb;
