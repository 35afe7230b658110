-- Scored inspections (issue 29, docs/inspections.md): an inspector checks a room against its category's weighted
-- checklist; the score is Σ weights 'Conforme' ÷ Σ weights applicable, in percent with one decimal.

-- The company's pass mark, in percent; an inspection keeps the mark it was scored against.
alter table companies add column nota_minima_inspecao numeric(4, 1) not null default 85
  check (nota_minima_inspecao between 0 and 100);

-- The ninth board of /auditoria, ours: off until a company enables it.
alter table boards drop constraint boards_id_check;
alter table boards add constraint boards_id_check check (id between 1 and 9);
insert into boards (id, label, is_default) values (9, 'Inspeções: pontuação média', false);

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
