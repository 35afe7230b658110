-- Scheduling (issue 12, docs/scheduling.md 'Persisting bookings'): one bookings row per date and slot.
-- slot 0 is the main cleaning ('Principal'), n the nª revision ('Revisão'); the row keeps its own copy of the slot's
-- times, so editing an agenda later never rewrites a past booking.
alter table bookings add column slot smallint not null default 0 check (slot between 0 and 19);

-- Denormalised like user_id: the environment the slot was for. An agenda moved to another environment does not move
-- its past bookings in the environment reports, and the reports by environment read an index instead of a join.
alter table bookings add column environment_id integer references environments (id);
update bookings b set environment_id = a.environment_id from agendas a where a.id = b.agenda_id;
alter table bookings alter column environment_id set not null;

-- One row per agenda, day and slot (001 had one per agenda and day). Rows written before this migration are slot 0.
drop index bookings_agenda_day_key;
create unique index bookings_agenda_day_slot_key on bookings (agenda_id, data_agend, slot);

-- The list queries of GET agendas/v2/Agendamentos/company (api/services/scheduling.ts): scope (the main company,
-- one branch, or one collaborator) + the order they answer in (day, slot start, slot end, id), so a page of 400 or
-- 500 is read in index order and stops after the page. They replace 001's (scope, data_agend) indexes.
drop index bookings_company_day_idx, bookings_branch_day_idx, bookings_user_day_idx;
create index bookings_company_day_idx on bookings (company_id, data_agend, hora_ini, hora_fim, id);
create index bookings_branch_day_idx on bookings (branch_id, data_agend, hora_ini, hora_fim, id);
create index bookings_user_day_idx on bookings (user_id, data_agend, hora_ini, hora_fim, id);
create index bookings_environment_day_idx on bookings (environment_id, data_agend);

-- A revision removed from an agenda must neither fail on nor delete the history done in it: the booking row keeps
-- the slot and its times; history.revision_id (the spec's Historic.revisionId) then becomes null.
alter table history drop constraint history_revision_id_fkey,
  add constraint history_revision_id_fkey foreign key (revision_id) references revisions (id) on delete set null;
