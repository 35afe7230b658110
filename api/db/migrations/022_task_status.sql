-- The history reports' status of a slot (spec 001 §4; docs/reports.md 'One status for a slot'), kept per booking and
-- summed by the bookings roll-up, so the collaborators list and the rooms' cards count what the day's detail shows.
--
-- §4 decides a slot by its tasks, not by what the cleaner tapped: each procedure of the room (today's list, those not
-- removed from the catalogue) is done when the slot has an execution of it. All done: the slot is done ('Completo',
-- 'Cancelado' with an observation); some: 'Incompleto'; none: 'A iniciar' today, 'Não Realizado' before. A slot
-- finished with a procedure skipped is 'Incompleto' here, whatever bookings.status says (that is the board's status).
--
-- bookings.tarefas_situacao: 'completa' (every task done), 'incompleta' (some), 'nenhuma' (executions, none of them a
-- task of the room's list: a procedure removed from the room since); null while the slot has no execution at all, so
-- an agenda save that writes a year of slots sets nothing: a reader counts a null slot as done when its room has no
-- procedures (nothing asked, nothing missing) and as none done otherwise.
alter table bookings add column tarefas_situacao text;

-- A booking's situation from its rows: the one definition, used by the triggers below and by the roll-up's view.
-- PL/pgSQL, not SQL, and one statement: its plan is kept for the session, where a SQL function's body is planned again
-- at every call (a procedure recorded cost +40 % of PGlite CPU that way, +7 % this way; docs/performance.md).
create function tarefas_situacao_of(booking integer, environment integer) returns text
language plpgsql stable as $$
declare
  recorded integer;
  done integer;
  asked integer;
begin
  with room as (
    select ep.procedure_id from environment_procedures ep
    join procedures p on p.id = ep.procedure_id and p.deleted_at is null
    where ep.environment_id = environment
  )
  select count(*), count(distinct h.procedure_id) filter (where room.procedure_id is not null),
    (select count(*) from room)
  into recorded, done, asked
  from history h left join room on room.procedure_id = h.procedure_id
  where h.booking_id = booking;
  return case
    when recorded = 0 then null
    when done = asked then 'completa'
    when done = 0 then 'nenhuma'
    else 'incompleta'
  end;
end
$$;

-- The history's counts (014) and the situation move in one update of each booking, so an execution call writes its
-- booking once, as before (one roll-up change per call).
create or replace function history_counts_add() returns trigger language plpgsql as $$
begin
  update bookings b set executions = b.executions + c.executions, photos = b.photos + c.photos,
    tarefas_situacao = tarefas_situacao_of(b.id, b.environment_id)
  from (select booking_id, count(*) executions, count(image) photos from changed_rows group by booking_id) c
  where b.id = c.booking_id;
  return null;
end
$$;

create or replace function history_counts_remove() returns trigger language plpgsql as $$
begin
  update bookings b set executions = b.executions - c.executions, photos = b.photos - c.photos,
    tarefas_situacao = tarefas_situacao_of(b.id, b.environment_id)
  from (select booking_id, count(*) executions, count(image) photos from changed_rows group by booking_id) c
  where b.id = c.booking_id;
  return null;
end
$$;

create or replace function history_counts_move() returns trigger language plpgsql as $$
begin
  update bookings set executions = executions - 1, photos = photos - (old.image is not null)::int,
    tarefas_situacao = tarefas_situacao_of(id, environment_id)
  where id = old.booking_id;
  update bookings set executions = executions + 1, photos = photos + (new.image is not null)::int,
    tarefas_situacao = tarefas_situacao_of(id, environment_id)
  where id = new.booking_id;
  return null;
end
$$;

-- A row that changes its procedure changes its booking's tasks: the trigger now names procedure_id too.
drop trigger history_counts_upd on history;
create trigger history_counts_upd after update of booking_id, image, procedure_id on history
  for each row when (old.booking_id is distinct from new.booking_id or (old.image is null) <> (new.image is null)
    or old.procedure_id is distinct from new.procedure_id)
  execute function history_counts_move();

create or replace function history_counts_clear() returns trigger language plpgsql as $$
begin
  update bookings set executions = 0, photos = 0, tarefas_situacao = null
  where executions <> 0 or photos <> 0 or tarefas_situacao is not null;
  return null;
end
$$;

-- The same rule for every executed slot of some rooms in one pass over their history: a room's list edited, a
-- procedure removed from the catalogue, the backfill, the roll-up's check (booking_tasks_recount) and its rebuild.
-- Two writings of one rule, on purpose: the check compares what the history's triggers kept (the function above, one
-- booking at a time) with this. One booking at a time here cost ~0.5 ms a slot: 90 s for the bench's year; matching
-- the rooms with = any instead of this join made the year's check 2 times and its rebuild 10 times slower.
create function booking_tasks(rooms integer[]) returns table (id integer, situacao text) language sql stable as $$
  with chosen as (
    select distinct unnest(rooms) environment_id
  ), room as (
    select ep.environment_id, ep.procedure_id from environment_procedures ep
    join chosen on chosen.environment_id = ep.environment_id
    join procedures p on p.id = ep.procedure_id and p.deleted_at is null
  ), asked as (
    select environment_id, count(*) asked from room group by environment_id
  ), done as (
    select b.id, b.environment_id, count(distinct h.procedure_id) filter (where room.procedure_id is not null) done
    from bookings b
    join chosen on chosen.environment_id = b.environment_id
    join history h on h.booking_id = b.id
    left join room on room.environment_id = b.environment_id and room.procedure_id = h.procedure_id
    group by b.id, b.environment_id
  )
  select done.id, case
      when done.done = coalesce(asked.asked, 0) then 'completa'
      when done.done = 0 then 'nenhuma'
      else 'incompleta'
    end
  from done left join asked on asked.environment_id = done.environment_id
$$;

-- The room's list changes (a procedure added to or taken off the room, one removed from the catalogue or brought
-- back): the situation of the room's slots that have executions is worked out again (those without stay null and are
-- read against the new list). Bounded by those rooms' own history; rare, manager-made writes.
create function tarefas_situacao_refresh(rooms integer[]) returns void language sql as $$
  update bookings b set tarefas_situacao = t.situacao from booking_tasks(rooms) t
  where t.id = b.id and b.tarefas_situacao is distinct from t.situacao
$$;

create function room_tasks_changed() returns trigger language plpgsql as $$
begin
  perform tarefas_situacao_refresh(array(select environment_id from changed_rows));
  return null;
end
$$;
create function room_tasks_moved() returns trigger language plpgsql as $$
begin
  perform tarefas_situacao_refresh(array(select environment_id from old_rows union select environment_id from new_rows));
  return null;
end
$$;
create trigger room_tasks_ins after insert on environment_procedures referencing new table as changed_rows
  for each statement execute function room_tasks_changed();
create trigger room_tasks_del after delete on environment_procedures referencing old table as changed_rows
  for each statement execute function room_tasks_changed();
create trigger room_tasks_upd after update on environment_procedures referencing old table as old_rows
  new table as new_rows for each statement execute function room_tasks_moved();

create function catalogue_tasks_changed() returns trigger language plpgsql as $$
begin
  perform tarefas_situacao_refresh(array(
    select ep.environment_id from environment_procedures ep
    where ep.procedure_id in (
      select n.id from new_rows n join old_rows o using (id) where (n.deleted_at is null) <> (o.deleted_at is null))));
  return null;
end
$$;
create trigger catalogue_tasks_upd after update on procedures referencing old table as old_rows new table as new_rows
  for each statement execute function catalogue_tasks_changed();

-- A slot moved to another room (an agenda's room edited) is read against that room's list.
create function booking_room_changed() returns trigger language plpgsql as $$
begin
  new.tarefas_situacao := tarefas_situacao_of(new.id, new.environment_id);
  return new;
end
$$;
create trigger booking_room_upd before update of environment_id on bookings
  for each row when (old.environment_id is distinct from new.environment_id and new.executions > 0)
  execute function booking_room_changed();

create view booking_tasks_recount as select * from booking_tasks(array(select id from environments));

update bookings b set tarefas_situacao = t.situacao
from booking_tasks(array(select id from environments)) t where t.id = b.id;

-- The roll-up counts the slots by situation; the rest of a key's slots (agendamentos minus these) have no execution.
alter table booking_days add column tarefas_completas integer not null default 0;
alter table booking_days add column tarefas_incompletas integer not null default 0;
alter table booking_days add column tarefas_nenhuma integer not null default 0;
alter table booking_days alter column tarefas_completas drop default;
alter table booking_days alter column tarefas_incompletas drop default;
alter table booking_days alter column tarefas_nenhuma drop default;

-- The view counts the situation from the history itself (booking_tasks_recount), not from the bookings' column, so
-- the check (api/services/rollups.ts) also catches a column gone wrong.
create or replace view booking_days_recount as
select company_id, data_agend dia, branch_id, user_id, environment_id, agenda_id,
  count(*)::int agendamentos,
  (count(*) filter (where status = 'Completo'))::int completos,
  (count(*) filter (where status = 'Incompleto'))::int incompletos,
  (count(*) filter (where status = 'Andamento'))::int andamento,
  (count(*) filter (where status is null))::int sem_status,
  sum(executions)::int execucoes,
  sum(photos)::int fotos,
  (count(*) filter (where situacao = 'completa'))::int tarefas_completas,
  (count(*) filter (where situacao = 'incompleta'))::int tarefas_incompletas,
  (count(*) filter (where situacao = 'nenhuma'))::int tarefas_nenhuma
from (
  select b.*, t.situacao from bookings b left join booking_tasks_recount t on t.id = b.id where b.active
) b
group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id;

create or replace function booking_days_add() returns trigger language plpgsql as $$
begin
  insert into booking_days as d
  select company_id, data_agend, branch_id, user_id, environment_id, agenda_id, count(*),
    count(*) filter (where status = 'Completo'), count(*) filter (where status = 'Incompleto'),
    count(*) filter (where status = 'Andamento'), count(*) filter (where status is null),
    sum(executions), sum(photos),
    count(*) filter (where tarefas_situacao = 'completa'), count(*) filter (where tarefas_situacao = 'incompleta'),
    count(*) filter (where tarefas_situacao = 'nenhuma')
  from new_rows where active
  group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  on conflict (company_id, dia, branch_id, user_id, environment_id, agenda_id) do update
    set agendamentos = d.agendamentos + excluded.agendamentos, completos = d.completos + excluded.completos,
        incompletos = d.incompletos + excluded.incompletos, andamento = d.andamento + excluded.andamento,
        sem_status = d.sem_status + excluded.sem_status, execucoes = d.execucoes + excluded.execucoes,
        fotos = d.fotos + excluded.fotos, tarefas_completas = d.tarefas_completas + excluded.tarefas_completas,
        tarefas_incompletas = d.tarefas_incompletas + excluded.tarefas_incompletas,
        tarefas_nenhuma = d.tarefas_nenhuma + excluded.tarefas_nenhuma;
  return null;
end
$$;

create or replace function booking_days_remove() returns trigger language plpgsql as $$
begin
  update booking_days d
    set agendamentos = d.agendamentos - c.agendamentos, completos = d.completos - c.completos,
        incompletos = d.incompletos - c.incompletos, andamento = d.andamento - c.andamento,
        sem_status = d.sem_status - c.sem_status, execucoes = d.execucoes - c.execucoes, fotos = d.fotos - c.fotos,
        tarefas_completas = d.tarefas_completas - c.tarefas_completas,
        tarefas_incompletas = d.tarefas_incompletas - c.tarefas_incompletas,
        tarefas_nenhuma = d.tarefas_nenhuma - c.tarefas_nenhuma
  from (
    select company_id, data_agend, branch_id, user_id, environment_id, agenda_id, count(*) agendamentos,
      count(*) filter (where status = 'Completo') completos, count(*) filter (where status = 'Incompleto') incompletos,
      count(*) filter (where status = 'Andamento') andamento, count(*) filter (where status is null) sem_status,
      sum(executions) execucoes, sum(photos) fotos,
      count(*) filter (where tarefas_situacao = 'completa') tarefas_completas,
      count(*) filter (where tarefas_situacao = 'incompleta') tarefas_incompletas,
      count(*) filter (where tarefas_situacao = 'nenhuma') tarefas_nenhuma
    from old_rows where active
    group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  ) c
  where (d.company_id, d.dia, d.branch_id, d.user_id, d.environment_id, d.agenda_id)
      = (c.company_id, c.data_agend, c.branch_id, c.user_id, c.environment_id, c.agenda_id);
  delete from booking_days where agendamentos = 0 and (company_id, dia, branch_id, user_id, environment_id, agenda_id)
    in (select company_id, data_agend, branch_id, user_id, environment_id, agenda_id from old_rows where active);
  return null;
end
$$;

create or replace function booking_days_change() returns trigger language plpgsql as $$
declare
  emptied boolean;
begin
  with changed as (
    insert into booking_days as d
    select * from (
      select company_id, data_agend, branch_id, user_id, environment_id, agenda_id, sum(sign)::int agendamentos,
        sum(sign * (status is not distinct from 'Completo')::int)::int completos,
        sum(sign * (status is not distinct from 'Incompleto')::int)::int incompletos,
        sum(sign * (status is not distinct from 'Andamento')::int)::int andamento,
        sum(sign * (status is null)::int)::int sem_status,
        sum(sign * executions)::int execucoes, sum(sign * photos)::int fotos,
        sum(sign * (tarefas_situacao is not distinct from 'completa')::int)::int tarefas_completas,
        sum(sign * (tarefas_situacao is not distinct from 'incompleta')::int)::int tarefas_incompletas,
        sum(sign * (tarefas_situacao is not distinct from 'nenhuma')::int)::int tarefas_nenhuma
      from (
        select 1 sign, company_id, data_agend, branch_id, user_id, environment_id, agenda_id, status, executions, photos,
          tarefas_situacao
        from new_rows where active
        union all
        select -1, company_id, data_agend, branch_id, user_id, environment_id, agenda_id, status, executions, photos,
          tarefas_situacao
        from old_rows where active
      ) c
      group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    ) delta
    where (agendamentos, completos, incompletos, andamento, sem_status, execucoes, fotos, tarefas_completas,
        tarefas_incompletas, tarefas_nenhuma) <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    on conflict (company_id, dia, branch_id, user_id, environment_id, agenda_id) do update
      set agendamentos = d.agendamentos + excluded.agendamentos, completos = d.completos + excluded.completos,
          incompletos = d.incompletos + excluded.incompletos, andamento = d.andamento + excluded.andamento,
          sem_status = d.sem_status + excluded.sem_status, execucoes = d.execucoes + excluded.execucoes,
          fotos = d.fotos + excluded.fotos, tarefas_completas = d.tarefas_completas + excluded.tarefas_completas,
          tarefas_incompletas = d.tarefas_incompletas + excluded.tarefas_incompletas,
          tarefas_nenhuma = d.tarefas_nenhuma + excluded.tarefas_nenhuma
    returning d.agendamentos
  )
  select coalesce(bool_or(agendamentos = 0), false) into emptied from changed;
  if emptied then
    delete from booking_days where agendamentos = 0 and (company_id, dia, branch_id, user_id, environment_id, agenda_id)
      in (select company_id, data_agend, branch_id, user_id, environment_id, agenda_id from old_rows where active);
  end if;
  return null;
end
$$;

-- The new figures from the rows (the update above kept them for the slots it touched; the rest start from here).
delete from booking_days;
insert into booking_days select * from booking_days_recount;
