-- The users and pre-registered CPF lists cache their totals like every other list (docs/performance.md 'Caches and
-- their invalidation'): every statement that writes either table moves its company's list version (migration 003's
-- bump_list_version), so a cached total is used only while no such write has happened since it was counted. Any
-- write moves it, a new avatar or password included: those are rare, and each costs the next list pages one count.
create trigger users_list_version_ins after insert on users referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger users_list_version_upd after update on users referencing new table as changed_rows
  for each statement execute function bump_list_version();
create trigger users_list_version_del after delete on users referencing old table as changed_rows
  for each statement execute function bump_list_version();
create trigger pre_registered_cpfs_list_version_ins after insert on pre_registered_cpfs
  referencing new table as changed_rows for each statement execute function bump_list_version();
create trigger pre_registered_cpfs_list_version_upd after update on pre_registered_cpfs
  referencing new table as changed_rows for each statement execute function bump_list_version();
create trigger pre_registered_cpfs_list_version_del after delete on pre_registered_cpfs
  referencing old table as changed_rows for each statement execute function bump_list_version();
