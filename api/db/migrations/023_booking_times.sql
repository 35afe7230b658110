-- The audit dashboard's figures in the bookings roll-up (docs/audit-dashboard.md 'Read from the roll-up'): its slot
-- boards count the slots by status (the columns already here), and per collaborator the slots started in the app,
-- per room the execution time against the planned time. With these four columns a year's dashboard sums the days of
-- booking_days instead of reading every booking of the year.
--
-- A slot is measured when it was finished after it was started; its time, and its planned time (hora_fim - hora_ini,
-- over midnight when the end is earlier), are each capped at a day (api/domain/reports.ts MAX_ITEM_MS: one slot left
-- open for a week must not outweigh a room's year) and rounded to the millisecond per slot, as the dashboard read them
-- from the rows. Two immutable SQL functions of one expression: the planner inlines them, so the triggers below pay
-- no call per row, and the rule is written once for the view and the three triggers.
create function slot_ms_real(start_date timestamptz, finished_at timestamptz) returns bigint
language sql immutable as $$
  select case when finished_at >= start_date
    then least(extract(epoch from (finished_at - start_date)) * 1000, 86400000)::bigint end
$$;

create function slot_ms_previsto(hora_ini time, hora_fim time, start_date timestamptz, finished_at timestamptz)
returns bigint language sql immutable as $$
  select case when finished_at >= start_date
    then least(extract(epoch from (hora_fim - hora_ini
      + case when hora_fim < hora_ini then interval '1 day' else interval '0' end)) * 1000, 86400000)::bigint end
$$;

alter table booking_days add column iniciados integer not null default 0;
alter table booking_days add column medidos integer not null default 0;
alter table booking_days add column ms_reais bigint not null default 0;
alter table booking_days add column ms_previstos bigint not null default 0;
alter table booking_days alter column iniciados drop default;
alter table booking_days alter column medidos drop default;
alter table booking_days alter column ms_reais drop default;
alter table booking_days alter column ms_previstos drop default;

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
  (count(*) filter (where situacao = 'nenhuma'))::int tarefas_nenhuma,
  (count(*) filter (where start_date is not null))::int iniciados,
  (count(*) filter (where finished_at >= start_date))::int medidos,
  coalesce(sum(slot_ms_real(start_date, finished_at)), 0)::bigint ms_reais,
  coalesce(sum(slot_ms_previsto(hora_ini, hora_fim, start_date, finished_at)), 0)::bigint ms_previstos
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
    count(*) filter (where tarefas_situacao = 'nenhuma'),
    count(*) filter (where start_date is not null), count(*) filter (where finished_at >= start_date),
    coalesce(sum(slot_ms_real(start_date, finished_at)), 0),
    coalesce(sum(slot_ms_previsto(hora_ini, hora_fim, start_date, finished_at)), 0)
  from new_rows where active
  group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
  on conflict (company_id, dia, branch_id, user_id, environment_id, agenda_id) do update
    set agendamentos = d.agendamentos + excluded.agendamentos, completos = d.completos + excluded.completos,
        incompletos = d.incompletos + excluded.incompletos, andamento = d.andamento + excluded.andamento,
        sem_status = d.sem_status + excluded.sem_status, execucoes = d.execucoes + excluded.execucoes,
        fotos = d.fotos + excluded.fotos, tarefas_completas = d.tarefas_completas + excluded.tarefas_completas,
        tarefas_incompletas = d.tarefas_incompletas + excluded.tarefas_incompletas,
        tarefas_nenhuma = d.tarefas_nenhuma + excluded.tarefas_nenhuma,
        iniciados = d.iniciados + excluded.iniciados, medidos = d.medidos + excluded.medidos,
        ms_reais = d.ms_reais + excluded.ms_reais, ms_previstos = d.ms_previstos + excluded.ms_previstos;
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
        tarefas_nenhuma = d.tarefas_nenhuma - c.tarefas_nenhuma,
        iniciados = d.iniciados - c.iniciados, medidos = d.medidos - c.medidos,
        ms_reais = d.ms_reais - c.ms_reais, ms_previstos = d.ms_previstos - c.ms_previstos
  from (
    select company_id, data_agend, branch_id, user_id, environment_id, agenda_id, count(*) agendamentos,
      count(*) filter (where status = 'Completo') completos, count(*) filter (where status = 'Incompleto') incompletos,
      count(*) filter (where status = 'Andamento') andamento, count(*) filter (where status is null) sem_status,
      sum(executions) execucoes, sum(photos) fotos,
      count(*) filter (where tarefas_situacao = 'completa') tarefas_completas,
      count(*) filter (where tarefas_situacao = 'incompleta') tarefas_incompletas,
      count(*) filter (where tarefas_situacao = 'nenhuma') tarefas_nenhuma,
      count(*) filter (where start_date is not null) iniciados,
      count(*) filter (where finished_at >= start_date) medidos,
      coalesce(sum(slot_ms_real(start_date, finished_at)), 0) ms_reais,
      coalesce(sum(slot_ms_previsto(hora_ini, hora_fim, start_date, finished_at)), 0) ms_previstos
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
        sum(sign * (tarefas_situacao is not distinct from 'nenhuma')::int)::int tarefas_nenhuma,
        sum(sign * (start_date is not null)::int)::int iniciados,
        sum(sign * coalesce(finished_at >= start_date, false)::int)::int medidos,
        sum(sign * coalesce(ms_real, 0))::bigint ms_reais,
        sum(sign * coalesce(ms_previsto, 0))::bigint ms_previstos
      from (
        select 1 sign, company_id, data_agend, branch_id, user_id, environment_id, agenda_id, status, executions, photos,
          tarefas_situacao, start_date, finished_at, slot_ms_real(start_date, finished_at) ms_real,
          slot_ms_previsto(hora_ini, hora_fim, start_date, finished_at) ms_previsto
        from new_rows where active
        union all
        select -1, company_id, data_agend, branch_id, user_id, environment_id, agenda_id, status, executions, photos,
          tarefas_situacao, start_date, finished_at, slot_ms_real(start_date, finished_at),
          slot_ms_previsto(hora_ini, hora_fim, start_date, finished_at)
        from old_rows where active
      ) c
      group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    ) delta
    where (agendamentos, completos, incompletos, andamento, sem_status, execucoes, fotos, tarefas_completas,
        tarefas_incompletas, tarefas_nenhuma, iniciados, medidos, ms_reais, ms_previstos)
      <> (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    order by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
    on conflict (company_id, dia, branch_id, user_id, environment_id, agenda_id) do update
      set agendamentos = d.agendamentos + excluded.agendamentos, completos = d.completos + excluded.completos,
          incompletos = d.incompletos + excluded.incompletos, andamento = d.andamento + excluded.andamento,
          sem_status = d.sem_status + excluded.sem_status, execucoes = d.execucoes + excluded.execucoes,
          fotos = d.fotos + excluded.fotos, tarefas_completas = d.tarefas_completas + excluded.tarefas_completas,
          tarefas_incompletas = d.tarefas_incompletas + excluded.tarefas_incompletas,
          tarefas_nenhuma = d.tarefas_nenhuma + excluded.tarefas_nenhuma,
          iniciados = d.iniciados + excluded.iniciados, medidos = d.medidos + excluded.medidos,
          ms_reais = d.ms_reais + excluded.ms_reais, ms_previstos = d.ms_previstos + excluded.ms_previstos
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

-- The new figures from the rows, key by key (the other figures are already right).
update booking_days d
  set iniciados = c.iniciados, medidos = c.medidos, ms_reais = c.ms_reais, ms_previstos = c.ms_previstos
from (
  select company_id, data_agend, branch_id, user_id, environment_id, agenda_id,
    count(*) filter (where start_date is not null) iniciados, count(*) filter (where finished_at >= start_date) medidos,
    coalesce(sum(slot_ms_real(start_date, finished_at)), 0) ms_reais,
    coalesce(sum(slot_ms_previsto(hora_ini, hora_fim, start_date, finished_at)), 0) ms_previstos
  from bookings where active and start_date is not null
  group by company_id, data_agend, branch_id, user_id, environment_id, agenda_id
) c
where (d.company_id, d.dia, d.branch_id, d.user_id, d.environment_id, d.agenda_id)
    = (c.company_id, c.data_agend, c.branch_id, c.user_id, c.environment_id, c.agenda_id);
