-- Quick-reply templates (§3 "Template category and template"): a category names the teams that may use its
-- templates; a template's text keeps its variables as {client_name}, {operator_name}, {channel}, {date}.
-- §6 'Category, team-template and service-account modification can be denied': what platform staff lock for the
-- organisation (MODIFY_DENIALS in contracts; today 'TEMPLATE').
alter table organisations add column modify_denied text[] not null default '{}';

create table template_categories (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index template_categories_name_uq on template_categories (organisation_id, lower(name));

create table template_category_teams (
  organisation_id uuid not null references organisations(id) on delete cascade,
  category_id uuid not null references template_categories(id) on delete cascade,
  team_id uuid not null references teams(id) on delete cascade,
  primary key (category_id, team_id)
);
create index template_category_teams_team_idx on template_category_teams (team_id);

create table templates (
  id uuid primary key default uuid_generate_v7(),
  organisation_id uuid not null references organisations(id) on delete cascade,
  category_id uuid not null references template_categories(id) on delete cascade,
  text text not null,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index templates_category_idx on templates (organisation_id, category_id);
