-- The activity reports (docs/activity-reports.md) filter a period's slots by 'feitas' (the booking has history rows),
-- 'pendentes' (none) and 'imagens' (at least one with a photo), and count them for the total. Looking the history up per
-- booking cost a year of ~970,000 history rows 152,000 look-ups for one total (~2.3 s for the year's 'imagens' page).
-- So each booking carries its counts, kept by the database on every write to history (the service's, a bulk insert,
-- a cascade, a hand-written fix): executions = its history rows, photos = those with an image. A slot holds each
-- procedure of its room at most once (api/services/execution.ts), so smallint is plenty.
-- No check constraint on them: a count gone wrong must not stop the staff recording their work.
alter table bookings add column executions smallint not null default 0;
alter table bookings add column photos smallint not null default 0;

update bookings b set executions = c.executions, photos = c.photos
from (select booking_id, count(*) executions, count(image) photos from history group by booking_id) c
where b.id = c.booking_id;

-- No index on them. Partial indexes on the scope and day where executions = 0 ('pendentes', 5 % of the bench's year)
-- cut that filter's year total from ~130 to ~30-60 ms (company) and ~120 to ~3 ms (a branch) under EXPLAIN ANALYZE on
-- PGlite, but a column in an index predicate makes every count update a non-HOT update (a new entry in each of the
-- bookings' indexes, for each procedure recorded, and PGlite never vacuums); where photos > 0 matched 83 % of the
-- bench's slots, so the total still visited each row (as 'todos' does). The page itself stops after 20 rows along
-- 007's scope indexes either way. Left out until a felt figure needs them.

-- Inserts and deletes: statement-level with transition tables (as 003's list versions), so a bulk insert (the bench's
-- year, bench/history-data.ts) updates each booking once with its grouped counts instead of once per history row.
create function history_counts_add() returns trigger language plpgsql as $$
begin
  update bookings b set executions = b.executions + c.executions, photos = b.photos + c.photos
  from (select booking_id, count(*) executions, count(image) photos from changed_rows group by booking_id) c
  where b.id = c.booking_id;
  return null;
end
$$;

create function history_counts_remove() returns trigger language plpgsql as $$
begin
  update bookings b set executions = b.executions - c.executions, photos = b.photos - c.photos
  from (select booking_id, count(*) executions, count(image) photos from changed_rows group by booking_id) c
  where b.id = c.booking_id;
  return null;
end
$$;

-- Updates: row-level, because a trigger with transition tables cannot name columns; it fires only when a row moves to
-- another booking or gains or loses its photo (the usual updates touch neither).
create function history_counts_move() returns trigger language plpgsql as $$
begin
  update bookings set executions = executions - 1, photos = photos - (old.image is not null)::int
  where id = old.booking_id;
  update bookings set executions = executions + 1, photos = photos + (new.image is not null)::int
  where id = new.booking_id;
  return null;
end
$$;

create trigger history_counts_ins after insert on history referencing new table as changed_rows
  for each statement execute function history_counts_add();
create trigger history_counts_del after delete on history referencing old table as changed_rows
  for each statement execute function history_counts_remove();
create trigger history_counts_upd after update of booking_id, image on history
  for each row when (old.booking_id is distinct from new.booking_id or (old.image is null) <> (new.image is null))
  execute function history_counts_move();
-- TRUNCATE fires no delete trigger: every count goes back to zero.
create function history_counts_clear() returns trigger language plpgsql as $$
begin
  update bookings set executions = 0, photos = 0 where executions <> 0 or photos <> 0;
  return null;
end
$$;
create trigger history_counts_truncate after truncate on history for each statement
  execute function history_counts_clear();
