-- Main companies and branches (issue 11, docs/organisation.md): the list query pattern of migration 003 for the
-- two new lists (folded columns kept by the database, the same translate() as api/lib/list-query.ts foldText), and
-- who registered a main company.
alter table companies add column nome_folded text collate "C" not null
  generated always as (translate(lower(nome), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table companies add column endereco_folded text collate "C" not null
  generated always as (translate(lower(endereco), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
alter table branches add column endereco_folded text collate "C" not null
  generated always as (translate(lower(endereco), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;

-- The Administrador (P) who registered the company: it stays in that user's main-company list (to edit its record;
-- nothing else of the new tenant becomes visible to them). Null for companies made by the seed or before this.
alter table companies add column created_by integer references users (id) on delete set null;
create index companies_created_by_idx on companies (created_by) where created_by is not null;

