-- Long exports as jobs (docs/exports.md): an Excel or PDF download is queued here, run by one instance at a time
-- within bounds per process and per company, its file kept in storage for its requester until expires_at.

create table export_jobs (
  id serial primary key,
  -- The requester's main company (the per-company bound) and the requester (the only one who may read the job).
  company_id integer not null references companies (id),
  user_id integer not null references users (id) on delete cascade,
  -- The export's web address, path and query: the job is that download run later as its requester.
  caminho text not null check (length(caminho) between 2 and 4000),
  -- The public origin of the request that queued it: links inside the file point there.
  origem text not null check (length(origem) between 1 and 300),
  status text not null default 'na_fila' check (status in ('na_fila', 'gerando', 'pronta', 'falhou')),
  -- Bytes written so far (the progress page's figure), then the file's size.
  bytes bigint not null default 0,
  arquivo text,
  nome_arquivo text,
  tipo_arquivo text,
  -- Why it failed, in Portuguese, and the page to go back to.
  mensagem text,
  voltar text,
  -- A refusal that was not a way back but an error page (404 for another branch's filter, …): its HTTP status.
  codigo_http smallint check (codigo_http between 400 and 499),
  tentativas smallint not null default 0,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  -- A running job's lease: an instance that died leaves it to be claimed again when this passes.
  claimed_until timestamptz,
  expires_at timestamptz
);
create index export_jobs_queue_idx on export_jobs (created_at, id) where status in ('na_fila', 'gerando');
create index export_jobs_user_idx on export_jobs (user_id, id);
create index export_jobs_expiry_idx on export_jobs (expires_at) where expires_at is not null;
