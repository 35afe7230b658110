-- The incident loop's second half (issue 28 §4–6, docs/incidents.md).

-- 'Criar limpeza corretiva': a one-day agenda for an ASG of the room's branch, made through the scheduling service so
-- its booking shows on the board, the calendar and the reports; the incident it answers makes it an 'Extra'.
alter table agendas add column incident_id integer references incidents (id);
create index agendas_incident_idx on agendas (incident_id) where incident_id is not null;

-- The e-mails to an incident's owners, one row per incident and kind: 'aberta' due when it opens, 'atrasada' due at
-- its deadline. Every instance's minute sweep claims due rows with FOR UPDATE SKIP LOCKED and a lease (claimed_until),
-- so with several instances on one database each row is sent once, and a row whose sender died is sent after a
-- restart when its lease runs out. done_at: sent, or no longer due (the incident closed first).
create table incident_alerts (
  id serial primary key,
  incident_id integer not null references incidents (id) on delete cascade,
  tipo text not null check (tipo in ('aberta', 'atrasada')),
  due_at timestamptz not null,
  claimed_until timestamptz,
  done_at timestamptz,
  unique (incident_id, tipo)
);
create index incident_alerts_due_idx on incident_alerts (due_at) where done_at is null;
insert into incident_alerts (incident_id, tipo, due_at, done_at)
select id, 'aberta', created_at, created_at from incidents;
insert into incident_alerts (incident_id, tipo, due_at, done_at)
select id, 'atrasada', prazo_at, case when status in ('aberta', 'em_atendimento') then null else closed_at end
from incidents;
