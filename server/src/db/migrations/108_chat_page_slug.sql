-- Issue 34: a chat page's address (/c/{slug}) names one live chat_page channel across the installation.
create unique index channels_chat_page_slug_uq on channels ((settings->>'slug'))
  where type = 'chat_page' and deleted_at is null;
