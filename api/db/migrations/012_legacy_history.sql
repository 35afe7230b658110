-- The old system's history (spec 001 §3 'Old-system dashboard row' joined with 'Old environment row'; issue 24 part 4;
-- docs/legacy-data.md). Rows are imported from CSV files (npm run import:legacy) and never written by the new system.
-- The new system kept the old ids of environments and users, so the rows point at today's rows; the names are kept as
-- they were in the old system. company_id and branch_id are the environment's at import time.
create table legacy_history (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  -- ID of the old row: unique per company, so importing the same file twice writes nothing twice.
  legacy_id integer not null,
  environment_id integer not null references environments (id),
  user_id integer not null references users (id),
  -- REVISAO_ID: the old system's revision (no row of ours).
  revisao_id integer,
  empresa text not null,
  ambiente_nome text not null,
  categoria text,
  setor text,
  andar text,
  procedimento_nome text,
  procedimentos text,
  nome_usuario text not null,
  inicio timestamptz not null,
  fim timestamptz,
  imagem text,
  hora_inicial_principal time,
  hora_final_principal time,
  revisao_inicial time,
  revisao_final time,
  data_criacao timestamptz,
  data_criacao_historico timestamptz,
  data_finalizacao_historico timestamptz,
  observacao text,
  imported_at timestamptz not null default now(),
  -- The old system's data ends where the new one starts (spec 001 §9 cutoff: August 2022, in America/Fortaleza).
  check (inicio < timestamptz '2022-08-01 00:00:00-03'),
  check (fim is null or fim >= inicio)
);
create unique index legacy_history_legacy_key on legacy_history (company_id, legacy_id);
-- The §7 calls: a collaborator's (/dash/user), a room's (/info/all/environments), a company's or branch's
-- (/environments/dashboard) rows of a period, in time order.
create index legacy_history_company_idx on legacy_history (company_id, inicio, id);
create index legacy_history_branch_idx on legacy_history (branch_id, inicio, id);
create index legacy_history_user_idx on legacy_history (user_id, inicio, id);
create index legacy_history_environment_idx on legacy_history (environment_id, inicio, id);

-- An imported row's observation gives one old observation (001_schema.sql), tied to it so a re-import adds none.
alter table legacy_observations
  add column legacy_history_id integer references legacy_history (id) on delete cascade;
create unique index legacy_observations_history_key on legacy_observations (legacy_history_id);
-- The status rule's match (room, collaborator, day) and the per-room and per-collaborator reads.
create index legacy_observations_environment_idx on legacy_observations (environment_id, created_at);
create index legacy_observations_user_idx on legacy_observations (user_id, created_at);
