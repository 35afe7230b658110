-- Bookings are written in short steps (issue 22 item 2, docs/scheduling.md 'Writing bookings in steps'): a save or an
-- edit commits the agenda first, with pending_from = the first day whose bookings may not match it yet, then brings its
-- bookings in line a window of days at a time, each window its own transaction, advancing pending_from; the last clears
-- it. An agenda left with pending_from (the process stopped half-way) is finished at the next start.
alter table agendas add column pending_from date;
create index agendas_pending_idx on agendas (pending_from) where pending_from is not null;
