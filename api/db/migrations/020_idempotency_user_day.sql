-- The per-user daily cap on new idempotency keys (api/services/idempotency.ts, docs/field-app.md 'Idempotency')
-- counts one user's keys of the last 24 hours: along this index it reads at most the cap's entries, never the
-- user's whole 30 days or everyone's day.
create index idempotency_keys_user_day_idx on idempotency_keys (company_id, user_id, created_at);
