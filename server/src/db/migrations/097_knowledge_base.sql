-- Knowledge base (issue 36, §2.6 profile side panel): categories available to teams, articles in them. An article
-- names its own teams or, naming none, is read by its category's teams. A public article has a page of its own at
-- /kb/{organisation id}/{public_slug}; the slug stays the same when the article stops and starts being public.
create table kb_categories (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index kb_categories_name_uq on kb_categories (organisation_id, lower(name));

create table kb_category_teams (
  organisation_id uuid not null references organisations(id) on delete cascade,
  category_id uuid not null references kb_categories(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  primary key (category_id, team_id)
);
create index kb_category_teams_team_idx on kb_category_teams (team_id);

create table kb_articles (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  category_id uuid not null references kb_categories(id) on delete cascade,
  title text not null,
  body text not null default '',
  public boolean not null default false,
  public_slug text not null,
  created_by uuid references users(id) on delete set null,
  updated_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Full-text search as in messages_fts_idx (041): the 'russian' configuration stems Russian words and Latin ones
  -- with the English stemmer; the title weighs more than the body.
  search tsvector generated always as (
    setweight(to_tsvector('russian', title), 'A') || setweight(to_tsvector('russian', body), 'B')
  ) stored
);
create index kb_articles_category_idx on kb_articles (organisation_id, category_id);
create unique index kb_articles_slug_uq on kb_articles (organisation_id, public_slug);
create index kb_articles_fts_idx on kb_articles using gin (search);

create table kb_article_teams (
  organisation_id uuid not null references organisations(id) on delete cascade,
  article_id uuid not null references kb_articles(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  primary key (article_id, team_id)
);
create index kb_article_teams_team_idx on kb_article_teams (team_id);
