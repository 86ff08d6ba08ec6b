-- Request categories in three levels (§3: category -> theme -> subtheme), each with the teams it is available
-- to (an empty list: the same teams as its parent; at the top, every team). Names are unique among siblings,
-- case-insensitive. Deleting a node deletes its themes and subthemes; chats keep their history.
alter table request_categories
  add column parent_id uuid references request_categories(id) on delete cascade,
  add column level smallint not null default 1 check (level between 1 and 3),
  add column team_ids uuid[] not null default '{}';
alter table request_categories add constraint request_categories_parent_level
  check ((parent_id is null) = (level = 1));
drop index request_categories_name_uq;
create unique index request_categories_name_uq on request_categories
  (organisation_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
create index request_categories_parent_idx on request_categories (parent_id) where parent_id is not null;

-- What a history event set or removed, as its path of names at that moment ('Category', 'Theme', 'Subtheme'):
-- the log stays readable after a rename or a deletion.
alter table chat_history add column category_path text[];
