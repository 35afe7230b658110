-- Users list and user names (issue 11, docs/users.md): the folded name the list searches and sorts by (the same
-- translate() as api/lib/list-query.ts foldText), a scope + name index, and one spelling of a name per user.
alter table users add column nome_folded text collate "C" not null
  generated always as (translate(lower(nome), 'áàâãäéèêëíìîïóòôõöúùûüçñ', 'aaaaaeeeeiiiiooooouuuucn')) stored;
create index users_company_name_idx on users (company_id, nome_folded, id);

create unique index user_names_name_key on user_names (user_id, lower(name));
