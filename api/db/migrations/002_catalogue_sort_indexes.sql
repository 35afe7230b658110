-- Lists sort by the name folded to lower case without accents (api/lib/list-query.ts foldText); these indexes
-- hold that order per main company so a page of a large catalogue does not sort every row.
create index sectors_sort_idx on sectors (company_id, translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) where deleted_at is null;
create index risks_sort_idx on risks (company_id, translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) where deleted_at is null;
create index procedures_sort_idx on procedures (company_id, translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) where deleted_at is null;
create index categories_sort_idx on categories (company_id, translate(lower(name), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) where deleted_at is null;
