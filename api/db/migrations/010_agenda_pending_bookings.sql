-- Bookings are written in short steps (issue 22 item 2, docs/scheduling.md 'Writing bookings in steps'): a save or an
-- edit commits the agenda first, with pending_from = the first day whose bookings may not match it yet, then brings its
-- bookings in line a window of days at a time, each window its own transaction, advancing pending_from (and pending_at,
-- when it last moved); the last clears both. An agenda left with pending_from (the process stopped, or a step lost
-- its connection) is finished at the next start, or by the minute's sweep once pending_at is a minute old.
alter table agendas add column pending_from date;
alter table agendas add column pending_at timestamptz;
create index agendas_pending_idx on agendas (pending_from) where pending_from is not null;
