-- The list query pattern (docs/performance.md): search and sort read columns the database keeps folded (lower case,
-- no accents, the same translate() as api/lib/list-query.ts foldText), so no function runs per row at query time.
-- Collation "C" makes the order byte order of the folded text on every server (PGlite and PostgreSQL alike) and
-- lets the btree serve it.
alter table sectors add column name_folded text collate "C" not null
  generated always as (translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table risks add column name_folded text collate "C" not null
  generated always as (translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table procedures add column name_folded text collate "C" not null
  generated always as (translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table categories add column name_folded text collate "C" not null
  generated always as (translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table branches add column nome_folded text collate "C" not null
  generated always as (translate(lower(nome), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;

-- Scope + sort + id: a page (and a keyset chunk) of the company or of one branch is read in index order and
-- stops after the page; the id is the tie-breaker the queries order by. They replace migration 002's
-- expression indexes and 001's company-only indexes.
drop index sectors_sort_idx, risks_sort_idx, procedures_sort_idx, categories_sort_idx;
drop index sectors_company_idx, risks_company_idx, procedures_company_idx, categories_company_idx;
create index sectors_company_sort_idx on sectors (company_id, name_folded, id) where deleted_at is null;
create index sectors_branch_sort_idx on sectors (branch_id, name_folded, id) where deleted_at is null;
create index risks_company_sort_idx on risks (company_id, name_folded, id) where deleted_at is null;
create index risks_branch_sort_idx on risks (branch_id, name_folded, id) where deleted_at is null;
create index procedures_company_sort_idx on procedures (company_id, name_folded, id) where deleted_at is null;
create index procedures_branch_sort_idx on procedures (branch_id, name_folded, id) where deleted_at is null;
create index categories_company_sort_idx on categories (company_id, name_folded, id) where deleted_at is null;
create index categories_branch_sort_idx on categories (branch_id, name_folded, id) where deleted_at is null;
create index branches_company_sort_idx on branches (company_id, nome_folded, id);

-- List totals are cached by the API per scope and search (api/lib/list-query.ts listTotals). A company's version
-- moves with every statement that writes a listed table of that company (any server, any SQL, even a rolled-back
-- one is undone with it), so a cached total is used only while the version it was counted at is current.
-- Statement-level triggers with transition tables: a 1,000-row insert bumps the version once, not 1,000 times.
create table list_versions (
  company_id integer primary key references companies (id) on delete cascade,
  version bigint not null default 1
);

create function bump_list_version() returns trigger language plpgsql as $$
begin
  insert into list_versions as v (company_id, version)
  select distinct company_id, 1 from changed_rows
  on conflict (company_id) do update set version = v.version + 1;
  return null;
end
$$;

create trigger sectors_list_version_ins after insert on sectors referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger sectors_list_version_upd after update on sectors referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger sectors_list_version_del after delete on sectors referencing old table as changed_rows
  for each statement execute function bump_list_version();
create trigger risks_list_version_ins after insert on risks referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger risks_list_version_upd after update on risks referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger risks_list_version_del after delete on risks referencing old table as changed_rows
  for each statement execute function bump_list_version();
create trigger procedures_list_version_ins after insert on procedures referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger procedures_list_version_upd after update on procedures referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger procedures_list_version_del after delete on procedures referencing old table as changed_rows
  for each statement execute function bump_list_version();
create trigger categories_list_version_ins after insert on categories referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger categories_list_version_upd after update on categories referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger categories_list_version_del after delete on categories referencing old table as changed_rows
  for each statement execute function bump_list_version();
-- A branch's name is searched with its items, so its writes move the version too.
create trigger branches_list_version_ins after insert on branches referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger branches_list_version_upd after update on branches referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger branches_list_version_del after delete on branches referencing old table as changed_rows
  for each statement execute function bump_list_version();
