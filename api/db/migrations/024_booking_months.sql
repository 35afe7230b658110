-- The closed months of the bookings roll-up (docs/operations.md 'The bookings roll-up', 'Closed months'): a year's
-- collaborators list, rooms' cards and audit dashboard sum a row per month, collaborator, room and agenda for the
-- months that are over, and booking_days only for the days of the period's open month and its edges (~12 rows per key
-- instead of ~365).
--
-- A month's rows are written by the first report that needs them (api/services/booking-months.ts), not by the
-- bookings' triggers: nearly every write is to today, and a fourth level in those triggers would cost every start and
-- record of the field app. What keeps them right is a version per company and month, bumped in the same transaction
-- as any change of that month's days, by the trigger below on booking_days itself (so the roll-up's rebuild, bulk
-- loads and hand fixes bump it too). A month's rows are read only while its `filled` equals its `version`, checked in
-- the reading statement's own snapshot; otherwise that statement reads the month's days, so a stale month is never
-- read, only refilled by the next report.
create table booking_month_state (
  company_id integer not null,
  -- The month's first day.
  mes date not null,
  version bigint not null default 0,
  -- The version the rows of booking_months were written at; null while none were.
  filled bigint,
  primary key (company_id, mes)
);

-- booking_days' figures summed per month (`mes`, the month's first day) at a version of booking_month_state: rows of
-- an older version are garbage the next fill removes.
create table booking_months (
  company_id integer not null,
  mes date not null,
  version bigint not null,
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
  tarefas_completas integer not null,
  tarefas_incompletas integer not null,
  tarefas_nenhuma integer not null,
  iniciados integer not null,
  medidos integer not null,
  ms_reais bigint not null,
  ms_previstos bigint not null,
  primary key (company_id, mes, version, branch_id, user_id, environment_id, agenda_id)
);

-- Which months a statement on booking_days changed that a report may hold filled: every month before the current
-- one in America/Fortaleza (the business time zone, as api/domain/schedule-expansion.ts businessToday), with a day to
-- spare for a clock that differs from the server's, so a write to the last day of a month bumps it too. A write to
-- today's month (nearly all of them) finds nothing to bump. In key order, as the fill writes them: two statements
-- that lock the same months lock them in one order, so they wait for each other instead of deadlocking.
create function booking_months_stale() returns trigger language plpgsql as $$
declare
  open_from date := date_trunc('month', (now() at time zone 'America/Fortaleza')::date + 1)::date;
begin
  if tg_op = 'INSERT' then
    insert into booking_month_state as s (company_id, mes, version)
    select distinct company_id, date_trunc('month', dia)::date, 1 from new_rows where dia < open_from
    order by 1, 2
    on conflict (company_id, mes) do update set version = s.version + 1;
  elsif tg_op = 'DELETE' then
    insert into booking_month_state as s (company_id, mes, version)
    select distinct company_id, date_trunc('month', dia)::date, 1 from old_rows where dia < open_from
    order by 1, 2
    on conflict (company_id, mes) do update set version = s.version + 1;
  else
    insert into booking_month_state as s (company_id, mes, version)
    select company_id, date_trunc('month', dia)::date, 1 from old_rows where dia < open_from
    union
    select company_id, date_trunc('month', dia)::date, 1 from new_rows where dia < open_from
    order by 1, 2
    on conflict (company_id, mes) do update set version = s.version + 1;
  end if;
  return null;
end
$$;

-- A month without a state row is at version 0 (a fill of it writes 0); its first change writes version 1, so a fill
-- that read the days before that change, and commits after it, is never taken for the month's figures.
create trigger booking_months_ins after insert on booking_days referencing new table as new_rows
  for each statement execute function booking_months_stale();
create trigger booking_months_del after delete on booking_days referencing old table as old_rows
  for each statement execute function booking_months_stale();
create trigger booking_months_upd after update on booking_days referencing old table as old_rows new table as new_rows
  for each statement execute function booking_months_stale();

-- TRUNCATE fires no row trigger: every month is unfilled.
create function booking_months_clear() returns trigger language plpgsql as $$
begin
  update booking_month_state set version = version + 1;
  return null;
end
$$;
create trigger booking_months_truncate after truncate on booking_days for each statement
  execute function booking_months_clear();
