-- The execution API (issue 12, docs/scheduling.md 'History and the execution API'): when a slot was closed, by
-- 'finish' (status 'Completo') or 'report incomplete' ('Incompleto'). start_date (001) is when it was started; the
-- reports' actual end and duration need the closing instant, which the history rows' times only approximate (a slot
-- can be closed without any procedure recorded, and the last procedure is not the end of the cleaning).
alter table bookings add column finished_at timestamptz;
