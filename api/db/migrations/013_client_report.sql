-- The client report (issue 24 part 3, docs/decisions/006-client-report.md): a cleaning counts as done late when it was
-- started after its scheduled start (day + slot time in America/Fortaleza) plus this many minutes. Set per main company
-- on its edit form; 15 unless told.
alter table companies add column late_tolerance_minutes smallint not null default 15
  check (late_tolerance_minutes between 0 and 240);
