-- The whole schema of both specs' section 3. Later migrations add behaviour, not churn.
-- Naming: English snake_case tables and columns; the API maps them to the contract's field names.
-- Tenancy: every row belongs to one main company (company_id); catalogue-like rows also to a branch.

create table companies (
  id serial primary key,
  nome text not null,
  cnpj varchar(14) not null check (cnpj ~ '^[0-9]{14}$'),
  endereco text not null default '',
  numero text not null default '',
  bairro text not null default '',
  cidade text not null default '',
  ativo boolean not null default true,
  max_number_users integer not null default 50 check (max_number_users > 0),
  created_at timestamptz not null default now()
);
create unique index companies_cnpj_key on companies (cnpj);

-- Audit boards (quadros de auditoria): the eight charts of the audit dashboard.
create table boards (
  id smallint primary key check (id between 1 and 8),
  label text not null,
  is_default boolean not null default true
);
insert into boards (id, label) values
  (1, 'Ambientes'),
  (2, 'Atividades em aberto por funcionário'),
  (3, 'Atividades em aberto por CNPJ'),
  (4, 'Atividades que demandam mais tempo'),
  (5, 'Tempo médio das atividades'),
  (6, 'Tempo Previsto x Realizado'),
  (7, 'Utilização do App'),
  (8, 'Resumo das Atividades');

create table company_boards (
  company_id integer not null references companies (id) on delete cascade,
  board_id smallint not null references boards (id),
  primary key (company_id, board_id)
);

create table branches (
  id serial primary key,
  company_id integer not null references companies (id),
  nome text not null,
  cnpj varchar(14) not null check (cnpj ~ '^[0-9]{14}$'),
  endereco text not null default '',
  numero text not null default '',
  ativo boolean not null default true,
  created_at timestamptz not null default now()
);
create index branches_company_idx on branches (company_id);
create unique index branches_name_key on branches (company_id, lower(nome));

create table users (
  id serial primary key,
  -- the tenant; branch_id is the home branch of branch-level staff (coordenador, ASG, no role)
  company_id integer not null references companies (id),
  branch_id integer references branches (id),
  filial_client_id integer references branches (id),
  nome text not null,
  email text not null,
  cpf varchar(11) not null check (cpf ~ '^[0-9]{11}$'),
  telefone text not null default '',
  data_nascimento date,
  avatar text,
  role_id smallint check (role_id in (1, 2, 3, 4, 5, 7)),
  coordenador smallint,
  ativo smallint not null default 1 check (ativo in (0, 1)),
  tipo text,
  is_physical_person boolean not null default true,
  logged_first_time boolean not null default false,
  verified boolean not null default false,
  allowed_create_users boolean not null default false,
  password_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index users_email_key on users (lower(email));
create unique index users_cpf_key on users (cpf);
create index users_company_idx on users (company_id);
create index users_branch_idx on users (branch_id);

-- Other names a user is known by (shown in 'Nomes do Usuário').
create table user_names (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  name text not null
);
create index user_names_user_idx on user_names (user_id);

-- The CPFs that own a main company (cpfUserMaster): may register branches.
create table master_cpfs (
  cpf varchar(11) not null check (cpf ~ '^[0-9]{11}$'),
  company_id integer not null references companies (id) on delete cascade,
  primary key (cpf, company_id)
);

-- CPFs allowed to sign up, with the branch and access level they get.
create table pre_registered_cpfs (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  cpf varchar(11) not null check (cpf ~ '^[0-9]{11}$'),
  role_id smallint check (role_id in (2, 3, 4, 5)),
  ativo boolean not null default true,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index pre_registered_cpfs_cpf_key on pre_registered_cpfs (cpf) where deleted_at is null;
create index pre_registered_cpfs_company_idx on pre_registered_cpfs (company_id, branch_id);

-- The four catalogues share one shape; risks add a colour.
create table sectors (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  name text not null,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);
create table risks (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  name text not null,
  color varchar(7) not null check (color ~ '^#[0-9a-fA-F]{6}$'),
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);
create table procedures (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  name text not null,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);
create table categories (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  name text not null,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index sectors_name_key on sectors (branch_id, lower(name)) where deleted_at is null;
create unique index risks_name_key on risks (branch_id, lower(name)) where deleted_at is null;
create unique index procedures_name_key on procedures (branch_id, lower(name)) where deleted_at is null;
create unique index categories_name_key on categories (branch_id, lower(name)) where deleted_at is null;
create index sectors_company_idx on sectors (company_id) where deleted_at is null;
create index risks_company_idx on risks (company_id) where deleted_at is null;
create index procedures_company_idx on procedures (company_id) where deleted_at is null;
create index categories_company_idx on categories (company_id) where deleted_at is null;

create table environments (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  name text not null,
  andar text not null,
  category_id integer not null references categories (id),
  sector_id integer not null references sectors (id),
  imagem text,
  hora_inicial time,
  hora_final time,
  qtd_limpeza_dia integer,
  deleted_at timestamptz,
  created_at timestamptz not null default now()
);
create unique index environments_name_key on environments (branch_id, lower(name)) where deleted_at is null;
create index environments_company_idx on environments (company_id) where deleted_at is null;
create index environments_category_idx on environments (category_id);
create index environments_sector_idx on environments (sector_id);

create table environment_risks (
  environment_id integer not null references environments (id) on delete cascade,
  risk_id integer not null references risks (id),
  primary key (environment_id, risk_id)
);
create index environment_risks_risk_idx on environment_risks (risk_id);

create table environment_procedures (
  environment_id integer not null references environments (id) on delete cascade,
  procedure_id integer not null references procedures (id),
  mandatory boolean not null,
  primary key (environment_id, procedure_id)
);
create index environment_procedures_procedure_idx on environment_procedures (procedure_id);

-- Scheduling (spec 001 section 3).
create table periodicities (
  id serial primary key,
  branch_id integer not null references branches (id),
  nome text not null,
  ativo boolean not null default true,
  type varchar(3) not null check (type in ('sem', '12X')),
  dias_semana text not null default '',
  dias_semana_2 text not null default '',
  dias_mes smallint[] not null default '{}',
  datas_anuais text[] not null default '{}',
  qtd_dias integer,
  hora_base_inicial time not null,
  hora_base_final time not null,
  created_at timestamptz not null default now()
);

create table revisions (
  id serial primary key,
  periodicity_id integer not null references periodicities (id) on delete cascade,
  branch_id integer not null references branches (id),
  hora_inicial time not null,
  hora_final time not null
);
create index revisions_periodicity_idx on revisions (periodicity_id);

create table agendas (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  environment_id integer not null references environments (id),
  periodicity_id integer not null references periodicities (id),
  user_id integer not null references users (id),
  ativo boolean not null default true,
  revision_photos boolean not null default false,
  vig_ini date not null,
  vig_fim date not null,
  finalizado boolean not null default false,
  data_finalizacao timestamptz,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  check (vig_fim >= vig_ini)
);
create index agendas_branch_idx on agendas (branch_id) where deleted_at is null;
create index agendas_environment_idx on agendas (environment_id);
create index agendas_user_idx on agendas (user_id);

-- One booking (agendamento) per agenda and day.
create table bookings (
  id serial primary key,
  agenda_id integer not null references agendas (id) on delete cascade,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  user_id integer not null references users (id),
  data_agend date not null,
  hora_ini time not null,
  hora_fim time not null,
  status text check (status in ('Andamento', 'Completo', 'Incompleto')),
  start_date timestamptz,
  vira_noite boolean not null default false,
  justificativa text,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index bookings_agenda_day_key on bookings (agenda_id, data_agend);
create index bookings_branch_day_idx on bookings (branch_id, data_agend);
create index bookings_company_day_idx on bookings (company_id, data_agend);
create index bookings_user_day_idx on bookings (user_id, data_agend);

-- History (historic): one executed procedure of a booking, in its main slot or a revision.
create table history (
  id serial primary key,
  booking_id integer not null references bookings (id) on delete cascade,
  procedure_id integer not null references procedures (id),
  revision_id integer references revisions (id),
  user_id integer not null references users (id),
  image text,
  observacao text,
  ocorrencia text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index history_booking_idx on history (booking_id);
create index history_user_idx on history (user_id, created_at);

-- Notes of the system before August 2022 (the 'dados anteriores' reports).
create table legacy_observations (
  id serial primary key,
  company_id integer not null references companies (id),
  environment_id integer references environments (id),
  user_id integer references users (id),
  observacao text not null,
  created_at timestamptz not null
);
create index legacy_observations_company_idx on legacy_observations (company_id, created_at);

-- Access: API tokens (stored hashed), password resets, outgoing e-mail, rate limits.
create table sessions (
  token_hash varchar(64) primary key,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_user_idx on sessions (user_id);

create table password_reset_tokens (
  token_hash varchar(64) primary key,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_reset_tokens_user_idx on password_reset_tokens (user_id);

create table outbox (
  id serial primary key,
  recipient text not null,
  subject text not null,
  body_text text not null,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);

create table rate_limits (
  key text primary key,
  window_started_at timestamptz not null,
  hits integer not null
);
