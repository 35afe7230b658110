-- The cleaners' field app (docs/field-app.md): field sessions, the room's QR value, both instants of each record
-- (done on the phone, received here), and the idempotency keys of the phone's queued sends.

-- A session is the back office's ('painel', every session before this) or the field app's ('campo': 30 days, opens
-- only the field pages and the execution calls).
alter table sessions add column kind text not null default 'painel' check (kind in ('painel', 'campo'));

-- The per-room value the printed QR code carries: a slot started with it was started in front of the room. Reissuing
-- the code keeps the one before in qr_codigo_anterior, so the field page can say the printed code was replaced.
alter table environments
  add column qr_codigo text not null default substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)
    check (qr_codigo ~ '^[0-9a-f]{16}$'),
  add column qr_codigo_anterior text,
  add column qr_emitido_em timestamptz;

-- start_date, finished_at and history.created_at keep the instant the work was done (the phone's, docs/field-app.md
-- 'Instants'); these keep when the server received it. envio_atraso_s: the longest wait between a record being done
-- and being received, for 'Enviado com atraso'; iniciada_via_qr: started with the room's current QR value (null:
-- started before the field app, by the demo simulator or the old system's import).
alter table bookings
  add column iniciada_via_qr boolean,
  add column start_received_at timestamptz,
  add column finish_received_at timestamptz,
  add column envio_atraso_s integer check (envio_atraso_s >= 0);
alter table history add column received_at timestamptz;

-- A send the phone may repeat (Idempotency-Key header): the first answer is kept and given again to the same key.
-- pedido identifies the request (method, path, a hash of the body): the same key with another request is refused.
create table idempotency_keys (
  company_id integer not null references companies (id),
  user_id integer not null references users (id) on delete cascade,
  chave text not null check (length(chave) between 1 and 100),
  pedido text not null check (length(pedido) <= 300),
  -- null while the first request is still being answered
  status smallint,
  resposta jsonb,
  created_at timestamptz not null default now(),
  primary key (company_id, user_id, chave)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
