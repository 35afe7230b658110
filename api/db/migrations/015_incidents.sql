-- The incident loop (issue 28, docs/incidents.md): visitors rate a room and report problems from its public page;
-- a report opens an incident ('ocorrência') that the branch handles until it is resolved with proof or discarded.
-- Nothing personal about visitors is stored: no address, no name, no device (the rate limits keep the address for
-- their window only, in rate_limits).

-- The kinds of problem a company offers visitors, each with its deadline and the proof resolving needs.
create table incident_kinds (
  id serial primary key,
  company_id integer not null references companies (id) on delete cascade,
  nome text not null check (length(nome) between 1 and 60),
  prazo_minutos integer not null check (prazo_minutos between 15 and 43200),
  prova text not null check (prova in ('foto', 'nota', 'ambos')),
  ordem smallint not null default 0,
  ativo boolean not null default true
);
create unique index incident_kinds_name_key on incident_kinds (company_id, lower(nome));

-- Every company starts with the same five kinds (a new one too, by the trigger below); it may change them later.
create function incident_kinds_defaults() returns trigger language plpgsql as $$
begin
  insert into incident_kinds (company_id, nome, prazo_minutos, prova, ordem) values
    (new.id, 'Falta de papel/sabonete', 120, 'nota', 1),
    (new.id, 'Sujeira', 120, 'foto', 2),
    (new.id, 'Lixo cheio', 120, 'foto', 3),
    (new.id, 'Vazamento ou dano', 240, 'ambos', 4),
    (new.id, 'Outro', 480, 'nota', 5);
  return null;
end
$$;
create trigger companies_incident_kinds after insert on companies
  for each row execute function incident_kinds_defaults();
insert into incident_kinds (company_id, nome, prazo_minutos, prova, ordem)
select c.id, k.nome, k.prazo, k.prova, k.ordem
from companies c
cross join (values
  ('Falta de papel/sabonete', 120, 'nota', 1),
  ('Sujeira', 120, 'foto', 2),
  ('Lixo cheio', 120, 'foto', 3),
  ('Vazamento ou dano', 240, 'ambos', 4),
  ('Outro', 480, 'nota', 5)) as k (nome, prazo, prova, ordem);

-- A visitor's rating of a room's cleaning: 1 (very bad) to 5 (very good), with its room and time only.
create table room_ratings (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  environment_id integer not null references environments (id),
  nota smallint not null check (nota between 1 and 5),
  created_at timestamptz not null default now()
);
create index room_ratings_room_idx on room_ratings (environment_id, created_at);
create index room_ratings_company_idx on room_ratings (company_id, created_at);

create table incidents (
  id serial primary key,
  company_id integer not null references companies (id),
  branch_id integer not null references branches (id),
  environment_id integer not null references environments (id),
  kind_id integer not null references incident_kinds (id),
  status text not null default 'aberta' check (status in ('aberta', 'em_atendimento', 'resolvida', 'descartada')),
  descricao text not null default '' check (length(descricao) <= 500),
  -- The visitor's photo (re-encoded, no metadata) in the storage's 'incidents' folder.
  foto text,
  -- Identical reports (same room, kind and text) within 10 minutes of the last one are merged: how many, the last.
  relatos integer not null default 1 check (relatos >= 1),
  ultimo_relato_at timestamptz not null default now(),
  -- null: the branch's coordinators own it (the default).
  owner_id integer references users (id),
  prazo_at timestamptz not null,
  motivo_descarte text check (length(motivo_descarte) <= 500),
  created_at timestamptz not null default now(),
  closed_at timestamptz
);
create index incidents_room_idx on incidents (environment_id, created_at desc);
create index incidents_company_idx on incidents (company_id, created_at desc);
create index incidents_open_idx on incidents (company_id, branch_id, prazo_at) where status in ('aberta', 'em_atendimento');

-- The timeline: every event of an incident, who (null: the visitor or the system) and when.
create table incident_events (
  id serial primary key,
  incident_id integer not null references incidents (id) on delete cascade,
  tipo text not null check (tipo in ('aberta', 'relato_repetido', 'atribuida', 'prazo_alterado', 'corretiva', 'em_atendimento', 'resolvida', 'descartada', 'alerta_enviado')),
  user_id integer references users (id),
  detalhe text not null default '' check (length(detalhe) <= 1000),
  foto text,
  created_at timestamptz not null default now()
);
create index incident_events_incident_idx on incident_events (incident_id, id);
