-- The bookings per day (docs/operations.md 'The bookings roll-up'): one row per company, branch, day, collaborator,
-- room and agenda with the counts and sums the grouped reports show, so a year's collaborators list or rooms' cards
-- sums ~36,500 rows (the bench's year: 100 agendas × 365 days) instead of counting 182,500 bookings per request.
--
-- Only ACTIVE bookings (bookings.active) are counted. 'Não realizado' is not stored: a reader counts sem_status of the
-- days before today, so nothing changes at midnight and no job has to run. The agenda's own state (agendas.ativo,
-- deleted_at) is not folded in either: a reader joins agendas on agenda_id (a few hundred rows), so switching an
-- agenda off or removing it rewrites nothing here and is seen at once.
--
-- Kept by the triggers below, in the same transaction as every write to bookings, rather than by a service: the
-- bookings are written by the scheduling and execution services, the history triggers of 014 (executions, photos),
-- bulk SQL (the bench's year, the old-system import, the demo simulator) and hand fixes in psql. A service would have
-- to be called by each of them, and one forgotten caller would leave the roll-up wrong without a sign; a trigger
-- cannot be forgotten, and a rolled-back write takes its roll-up change with it. `npm run check:rollups` compares the
-- table with the rows and rebuilds a company (api/services/rollups.ts).
--
-- No foreign keys: every key comes from a bookings row, whose own keys are checked, and a key's row goes when its
-- last booking goes (below); five more checks on each new key would cost every agenda save. No check constraints
-- either (as 014's counts): a figure gone wrong must not stop the staff recording their work.
create table booking_days (
  company_id integer not null,
  dia date not null,
  branch_id integer not null,
  user_id integer not null,
  environment_id integer not null,
  agenda_id integer not null,
  agendamentos integer not null,
  completos integer not null,
  incompletos integer not null,
  andamento integer not null,
  sem_status integer not null,
  execucoes integer not null,
  fotos integer not null,
  -- A company's period reads the key's prefix; the rest only makes the key whole.
  primary key (company_id, dia, branch_id, user_id, environment_id, agenda_id)
);
-- A branch's period, one collaborator's and one room's (the drill-downs). Nothing by agenda: readers join agendas
-- from here, and a deleted agenda's rows are found by the whole key its bookings carry.
create index booking_days_branch_idx on booking_days (branch_id, dia);
create index booking_days_user_idx on booking_days (user_id, dia);
create index booking_days_environment_idx on booking_days (environment_id, dia);

-- The roll-up's definition over the rows: the backfill below, the check and the rebuild (api/services/rollups.ts)
-- read it; the triggers apply the same per statement from its changed rows.
create view booking_days_recount as
select company_id, data_agend dia, branch_id, user_id, environment_id, agenda_id,
  count(*)::int agendamentos,
  (count(*) filter (where status = 'Completo'))::int completos,
  (count(*) filter (where status = 'Incompleto'))::int incompletos,
  (count(*) filter (where status = 'Andamento'))::int andamento,
  (count(*) filter (where status is null))::int sem_status,
  sum(executions)::int execucoes,
  sum(photos)::int fotos
from bookings
where active
group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id;

insert into booking_days select * from booking_days_recount;

-- Statement-level with transition tables (as 003 and 014): a bulk write (the bench's 182,500 bookings, a step of an
-- agenda save, 014's one update of every booking's counts) changes each key once. The statement's active rows,
-- added and removed (an update: both), become one signed change per key; a key whose change is nil (most updates: a
-- received instant, a late-send note, a time edit) is not written. Every update is seen, 014's executions and photos
-- counts included: they are updates of bookings. (A trigger with transition tables cannot name columns, so the update
-- trigger fires on every update and finds the nil changes itself.)
--
-- A key whose last active booking goes is deleted rather than kept at zero: the table then holds exactly the groups
-- of the rows (the check compares without exceptions), a reader listing the collaborators or rooms of a period never
-- meets one with no booking, and agenda edits that move future slots to another collaborator leave nothing behind.
-- Only an upsert that left a key at zero runs the delete. Upserts go in key order, so two writers of the same keys on
-- PostgreSQL lock them in the same order.
--
-- Each trigger has its own static statements over its transition tables: one function fed arrays of the changed rows
-- (the rule written once) cost ~0.9 ms of PGlite CPU per one-row update against ~0.2 ms for these (bench/
-- rollup-writes.ts), and an execution call is a few such updates.
create function booking_days_add() returns trigger language plpgsql as $$
begin
  insert into booking_days as d
  select company_id, data_agend, branch_id, user_id, environment_id, agenda_id, count(*),
    count(*) filter (where status = 'Completo'), count(*) filter (where status = 'Incompleto'),
    count(*) filter (where status = 'Andamento'), count(*) filter (where status is null),
    sum(executions), sum(photos)
  from new_rows where active
  group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  on conflict (company_id, dia, branch_id, user_id, environment_id, agenda_id) do update
    set agendamentos = d.agendamentos + excluded.agendamentos, completos = d.completos + excluded.completos,
        incompletos = d.incompletos + excluded.incompletos, andamento = d.andamento + excluded.andamento,
        sem_status = d.sem_status + excluded.sem_status, execucoes = d.execucoes + excluded.execucoes,
        fotos = d.fotos + excluded.fotos;
  return null;
end
$$;

create function booking_days_remove() returns trigger language plpgsql as $$
begin
  update booking_days d
    set agendamentos = d.agendamentos - c.agendamentos, completos = d.completos - c.completos,
        incompletos = d.incompletos - c.incompletos, andamento = d.andamento - c.andamento,
        sem_status = d.sem_status - c.sem_status, execucoes = d.execucoes - c.execucoes, fotos = d.fotos - c.fotos
  from (
    select company_id, data_agend, branch_id, user_id, environment_id, agenda_id, count(*) agendamentos,
      count(*) filter (where status = 'Completo') completos, count(*) filter (where status = 'Incompleto') incompletos,
      count(*) filter (where status = 'Andamento') andamento, count(*) filter (where status is null) sem_status,
      sum(executions) execucoes, sum(photos) fotos
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

create function booking_days_change() returns trigger language plpgsql as $$
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
        sum(sign * executions)::int execucoes, sum(sign * photos)::int fotos
      from (
        select 1 sign, company_id, data_agend, branch_id, user_id, environment_id, agenda_id, status, executions, photos
        from new_rows where active
        union all
        select -1, company_id, data_agend, branch_id, user_id, environment_id, agenda_id, status, executions, photos
        from old_rows where active
      ) c
      group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    ) delta
    where (agendamentos, completos, incompletos, andamento, sem_status, execucoes, fotos) <> (0, 0, 0, 0, 0, 0, 0)
    order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    on conflict (company_id, dia, branch_id, user_id, environment_id, agenda_id) do update
      set agendamentos = d.agendamentos + excluded.agendamentos, completos = d.completos + excluded.completos,
          incompletos = d.incompletos + excluded.incompletos, andamento = d.andamento + excluded.andamento,
          sem_status = d.sem_status + excluded.sem_status, execucoes = d.execucoes + excluded.execucoes,
          fotos = d.fotos + excluded.fotos
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

-- TRUNCATE fires no delete trigger and empties bookings of every company (with history, by cascade).
create function booking_days_clear() returns trigger language plpgsql as $$
begin
  delete from booking_days;
  return null;
end
$$;

create trigger booking_days_ins after insert on bookings referencing new table as new_rows
  for each statement execute function booking_days_add();
create trigger booking_days_del after delete on bookings referencing old table as old_rows
  for each statement execute function booking_days_remove();
create trigger booking_days_upd after update on bookings referencing old table as old_rows new table as new_rows
  for each statement execute function booking_days_change();
create trigger booking_days_truncate after truncate on bookings for each statement
  execute function booking_days_clear();
