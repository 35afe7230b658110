-- Scored inspections (issue 29, docs/inspections.md): an inspector checks a room against its category's weighted
-- checklist; the score is Σ weights 'Conforme' ÷ Σ weights applicable, in percent with one decimal.

-- The company's pass mark, in percent; an inspection keeps the mark it was scored against.
alter table companies add column nota_minima_inspecao numeric(4, 1) not null default 85
  check (nota_minima_inspecao between 0 and 100);

-- The ninth board of /auditoria, ours: a default board, so the company forms offer it (they offer default boards only),
-- but opt-in: a new company's form leaves it unticked (api/domain/audit.ts OPT_IN_BOARDS) and no company has it until
-- ticked on 'Editar Empresa' (docs/audit-dashboard.md).
alter table boards drop constraint boards_id_check;
alter table boards add constraint boards_id_check check (id between 1 and 9);
insert into boards (id, label, is_default) values (9, 'Inspeções: pontuação média', true);

-- One checklist per room category (categories belong to a branch). `versao` is the current version: an edit of the
-- items writes a new version's rows and leaves the old ones to the inspections scored against them.
create table checklists (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  category_id integer not null references categories (id),
  nome text not null check (length(nome) between 1 and 80),
  versao integer not null default 1 check (versao >= 1),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index checklists_category_key on checklists (category_id);
create index checklists_company_idx on checklists (company_id, branch_id, id);

-- `chave` names an item across versions (kept by an edit), so a re-inspection can say what changed item by item.
create sequence checklist_item_keys;
create table checklist_items (
  id serial primary key,
  checklist_id integer not null references checklists (id) on delete cascade,
  versao integer not null,
  chave integer not null default nextval('checklist_item_keys'),
  posicao smallint not null check (posicao between 1 and 50),
  texto text not null check (length(texto) between 1 and 200),
  peso smallint not null check (peso between 1 and 5),
  procedure_id integer references procedures (id),
  unique (checklist_id, versao, posicao)
);
create index checklist_items_procedure_idx on checklist_items (procedure_id) where procedure_id is not null;

create table inspections (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  environment_id integer not null references environments (id),
  checklist_id integer not null references checklists (id),
  versao integer not null,
  inspector_id integer not null references users (id),
  -- A re-inspection names the inspection it checks again (of the same room).
  reinspecao_de integer references inspections (id),
  observacao text not null default '' check (length(observacao) <= 1000),
  -- The score's two sums and the score itself (rounded half up to one decimal), written once at submission.
  pontos_conforme integer not null check (pontos_conforme >= 0),
  pontos_aplicaveis integer not null check (pontos_aplicaveis > 0 and pontos_conforme <= pontos_aplicaveis),
  nota numeric(4, 1) not null check (nota between 0 and 100),
  nota_minima numeric(4, 1) not null,
  aprovada boolean not null,
  created_at timestamptz not null default now()
);
create index inspections_company_idx on inspections (company_id, created_at desc, id desc);
create index inspections_branch_idx on inspections (branch_id, created_at desc, id desc);
create index inspections_room_idx on inspections (environment_id, created_at desc);
create index inspections_reinspection_idx on inspections (reinspecao_de) where reinspecao_de is not null;

create table inspection_answers (
  inspection_id integer not null references inspections (id) on delete cascade,
  item_id integer not null references checklist_items (id),
  resposta text not null check (resposta in ('conforme', 'nao_conforme', 'nao_se_aplica')),
  observacao text not null default '' check (length(observacao) <= 500),
  -- Re-encoded JPEGs in the storage's 'inspections' folder.
  fotos text[] not null default '{}' check (cardinality(fotos) <= 3),
  -- The incident a failure opened (the incident loop takes it from there).
  incident_id integer references incidents (id),
  primary key (inspection_id, item_id)
);
create index inspection_answers_incident_idx on inspection_answers (incident_id) where incident_id is not null;

-- The inspections per room and business day (America/Fortaleza), kept by the triggers below in the same transaction
-- as the inspections: the scores by week, room or branch and the list's totals read a few thousand rows for a year
-- instead of every inspection (bench 'Inspections', docs/performance.md). Checked against the raw rows in
-- tests/api/inspections.test.ts.
create table inspection_days (
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  environment_id integer not null references environments (id),
  dia date not null,
  inspecoes integer not null,
  aprovadas integer not null,
  soma_nota numeric(12, 1) not null,
  primary key (environment_id, dia, branch_id)
);
create index inspection_days_company_idx on inspection_days (company_id, dia);
create index inspection_days_branch_idx on inspection_days (branch_id, dia);

create function inspection_days_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into inspection_days as d (company_id, branch_id, environment_id, dia, inspecoes, aprovadas, soma_nota)
    values (new.company_id, new.branch_id, new.environment_id, (new.created_at at time zone 'America/Fortaleza')::date,
            1, new.aprovada::int, new.nota)
    on conflict (environment_id, dia, branch_id) do update
      set inspecoes = d.inspecoes + 1, aprovadas = d.aprovadas + excluded.aprovadas,
          soma_nota = d.soma_nota + excluded.soma_nota;
  else
    update inspection_days
      set inspecoes = inspecoes - 1, aprovadas = aprovadas - old.aprovada::int, soma_nota = soma_nota - old.nota
      where environment_id = old.environment_id and branch_id = old.branch_id
        and dia = (old.created_at at time zone 'America/Fortaleza')::date;
    delete from inspection_days
      where environment_id = old.environment_id and branch_id = old.branch_id and inspecoes <= 0;
  end if;
  return null;
end
$$;
create trigger inspections_days after insert or delete on inspections
  for each row execute function inspection_days_count();
