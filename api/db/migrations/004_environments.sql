-- Environments (ambientes) get the list query pattern of migration 003 (docs/performance.md): folded columns kept by
-- the database (the same translate() as api/lib/list-query.ts foldText), scope + sort + id indexes, and the list
-- version triggers that keep the cached totals exact.
alter table environments add column name_folded text collate "C" not null
  generated always as (translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table environments add column andar_folded text collate "C" not null
  generated always as (translate(lower(andar), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;

-- Scope (the main company, or one branch) + sort (the name by default, or the floor) + id, live rows only. They
-- replace 001's company-only index. Sorting by category, sector or branch joins those (a company has few of them).
drop index environments_company_idx;
create index environments_company_sort_idx on environments (company_id, name_folded, id) where deleted_at is null;
create index environments_branch_sort_idx on environments (branch_id, name_folded, id) where deleted_at is null;
create index environments_company_andar_idx on environments (company_id, andar_folded, id) where deleted_at is null;
create index environments_branch_andar_idx on environments (branch_id, andar_folded, id) where deleted_at is null;

-- The duplicate-name rule (spec 000 §5 'Environments': same name, case-insensitive, same 'empresa') keeps 001's
-- unique index environments_name_key on (branch_id, lower(name)) where deleted_at is null: the 'empresa' of an
-- environment is the branch its payload's companyId names, as for the catalogues (docs/environments.md).

-- The list total depends on the environments and, when the search covers risks or procedures, on their links: all
-- three move the company's list version. The link tables carry no company_id; it is read from the environment.
create function bump_list_version_by_environment() returns trigger language plpgsql as $$
begin
  insert into list_versions as v (company_id, version)
  select distinct e.company_id, 1 from changed_rows c join environments e on e.id = c.environment_id
  on conflict (company_id) do update set version = v.version + 1;
  return null;
end
$$;

create trigger environments_list_version_ins after insert on environments referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger environments_list_version_upd after update on environments referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger environments_list_version_del after delete on environments referencing old table as changed_rows
  for each statement execute function bump_list_version();
create trigger environment_risks_list_version_ins after insert on environment_risks
  referencing new table as changed_rows for each statement execute function bump_list_version_by_environment();
create trigger environment_risks_list_version_upd after update on environment_risks
  referencing new table as changed_rows for each statement execute function bump_list_version_by_environment();
create trigger environment_risks_list_version_del after delete on environment_risks
  referencing old table as changed_rows for each statement execute function bump_list_version_by_environment();
create trigger environment_procedures_list_version_ins after insert on environment_procedures
  referencing new table as changed_rows for each statement execute function bump_list_version_by_environment();
create trigger environment_procedures_list_version_upd after update on environment_procedures
  referencing new table as changed_rows for each statement execute function bump_list_version_by_environment();
create trigger environment_procedures_list_version_del after delete on environment_procedures
  referencing old table as changed_rows for each statement execute function bump_list_version_by_environment();

-- 'Has history' (the delete refusal) looks for bookings of the environment's agendas: agendas by environment are
-- indexed (agendas_environment_idx), bookings by agenda through bookings_agenda_day_key.
