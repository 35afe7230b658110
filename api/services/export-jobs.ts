import { setImmediate as nextTurn } from "node:timers/promises";

import { sql, type Kysely } from "kysely";
import type { Logger } from "pino";

import { newToken } from "../auth/tokens.ts";
import type { DB } from "../db/schema.ts";
import { ApiError, notFound } from "../lib/errors.ts";

import type { Storage } from "./storage.ts";

/**
 * Long exports as jobs (docs/exports.md). A download of a report's Excel or PDF is queued in export_jobs and run
 * later as its requester by a runner in each instance: at most `perProcess` at once in a process and `perCompany` at
 * once in a company across every instance (claims are serialised by an advisory lock), the rest wait in the queue in
 * order. The file goes to storage and is kept for its requester for `keepHours`. A job whose instance died is claimed
 * again when its lease runs out (twice at most). The queue is the database's, so it survives restarts and serves
 * several instances; the runner never runs a job twice at once.
 */

export const EXPORT_LIMITS = {
  perProcess: 2,
  perCompany: 1,
  /** Jobs one user may have waiting or running: the queue's rows stay bounded. */
  perUser: 100,
  keepHours: 24,
  leaseSeconds: 60,
  attempts: 2,
  /** A file larger than this is refused: the job fails and no file is kept. */
  maxBytes: 200 * 1024 * 1024,
  /** A job still running after this is stopped. */
  timeLimitMs: 10 * 60_000,
};
export type ExportLimits = typeof EXPORT_LIMITS;

export const EXPORT_TEXTS = {
  notFound: "Exportação não encontrada.",
  tooMany: (limit: number) =>
    `Você já tem ${limit} exportações na fila. Aguarde algumas terminarem antes de pedir outra.`,
  failed: "Não foi possível gerar o arquivo. Tente de novo; se o erro continuar, avise o suporte.",
  interrupted: "A exportação foi interrompida duas vezes (o servidor reiniciou). Peça o arquivo de novo.",
  tooLarge: (mb: number) => `O arquivo passou de ${mb} MB. Escolha um período menor ou filtre o relatório.`,
  tooLong: (minutes: number) =>
    `O arquivo levou mais de ${minutes} minutos para ser gerado. Escolha um período menor ou filtre o relatório.`,
};

/** The folder of the exported files in storage. */
export const EXPORT_FOLDER = "exports";

/** The header of the web app's answer when a run was refused (a redirect with a toast, turned into JSON). */
export const EXPORT_REFUSED_HEADER = "x-export-refused";

/** Claims are taken one at a time across instances, so the per-company bound holds (any fixed number, ours alone). */
const CLAIM_LOCK = 4243;

export type ExportJobStatus = "na_fila" | "gerando" | "pronta" | "falhou";

/** Queues an export for its requester: 429 when they already have `perUser` waiting or running. */
export async function enqueueExport(
  db: Kysely<DB>,
  job: { companyId: number; userId: number; caminho: string; origem: string },
  limits: Pick<ExportLimits, "perUser"> = EXPORT_LIMITS,
) {
  return db.transaction().execute(async (trx) => {
    // Two requests of one user at once count each other: the user's row is the lock.
    await trx.selectFrom("users").select("id").where("id", "=", job.userId).forUpdate().execute();
    const { pending } = await trx
      .selectFrom("export_jobs")
      .select((eb) => eb.fn.countAll<string>().as("pending"))
      .where("user_id", "=", job.userId)
      .where("status", "in", ["na_fila", "gerando"])
      .executeTakeFirstOrThrow();
    if (Number(pending) >= limits.perUser) throw new ApiError(429, EXPORT_TEXTS.tooMany(limits.perUser));
    return trx
      .insertInto("export_jobs")
      .values({ company_id: job.companyId, user_id: job.userId, caminho: job.caminho, origem: job.origem })
      .returning(["id", "status"])
      .executeTakeFirstOrThrow();
  });
}

/** A job as its requester reads it, with its place in the queue while it waits; null when not theirs or gone. */
export async function readExport(db: Kysely<DB>, userId: number, id: number) {
  const job = await db
    .selectFrom("export_jobs")
    .select([
      "id",
      "company_id",
      "caminho",
      "status",
      "bytes",
      "nome_arquivo",
      "tipo_arquivo",
      "arquivo",
      "mensagem",
      "voltar",
      "codigo_http",
      "created_at",
      "started_at",
      "finished_at",
      "expires_at",
    ])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!job) return null;
  let ahead = 0;
  if (job.status === "na_fila") {
    const row = await db
      .selectFrom("export_jobs")
      .select((eb) => eb.fn.countAll<string>().as("ahead"))
      .where("status", "in", ["na_fila", "gerando"])
      .where("company_id", "=", job.company_id)
      .where((eb) =>
        eb.or([
          eb("created_at", "<", job.created_at),
          eb.and([eb("created_at", "=", job.created_at), eb("id", "<", id)]),
        ]),
      )
      .executeTakeFirstOrThrow();
    ahead = Number(row.ahead);
  }
  return { ...job, bytes: Number(job.bytes), ahead };
}

export async function requireExport(db: Kysely<DB>, userId: number, id: number) {
  const job = await readExport(db, userId, id);
  if (!job) throw notFound(EXPORT_TEXTS.notFound);
  return job;
}

/** The requester's latest jobs (at most `limit`), newest first. */
export async function listExports(db: Kysely<DB>, userId: number, limit = 20) {
  const rows = await db
    .selectFrom("export_jobs")
    .select(["id", "caminho", "status", "bytes", "nome_arquivo", "created_at", "finished_at", "expires_at"])
    .where("user_id", "=", userId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, bytes: Number(row.bytes) }));
}

type Claimed = { id: number; user_id: number; company_id: number; caminho: string; origem: string };

/**
 * The oldest job that may start now: waiting (or left by a dead instance: its lease ran out) and of a company with
 * fewer than `perCompany` live jobs. A job claimed a third time is failed instead (it keeps killing its runner?).
 */
export async function claimNextExport(
  db: Kysely<DB>,
  now: Date,
  limits: Pick<ExportLimits, "perCompany" | "leaseSeconds" | "attempts"> = EXPORT_LIMITS,
  runningHere: number[] = [],
): Promise<(Claimed & { lease: Date }) | null> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    for (;;) {
      const job = await trx
        .selectFrom("export_jobs as j")
        .select(["j.id", "j.user_id", "j.company_id", "j.caminho", "j.origem", "j.tentativas"])
        .where((eb) =>
          eb.or([
            eb("j.status", "=", "na_fila"),
            eb.and([eb("j.status", "=", "gerando"), eb("j.claimed_until", "<", now)]),
          ]),
        )
        .where(
          sql<boolean>`(select count(*) from export_jobs r
            where r.company_id = j.company_id and r.status = 'gerando' and r.claimed_until >= ${now}) < ${limits.perCompany}`,
        )
        .$if(runningHere.length > 0, (qb) => qb.where("j.id", "not in", runningHere))
        // Turns between users: the user whose last job started longest ago (or never) goes first, so one user's
        // hundred files do not hold a colleague's small list behind them; in order of asking within a user.
        .orderBy(
          sql`(select max(u.started_at) from export_jobs u where u.user_id = j.user_id and u.id <> j.id)`,
          (ob) => ob.asc().nullsFirst(),
        )
        .orderBy("j.created_at")
        .orderBy("j.id")
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!job) return null;
      if (job.tentativas >= limits.attempts) {
        await trx
          .updateTable("export_jobs")
          .set({ status: "falhou", mensagem: EXPORT_TEXTS.interrupted, finished_at: now, claimed_until: null })
          .set({ expires_at: keepUntil(now) })
          .where("id", "=", job.id)
          .execute();
        continue;
      }
      const lease = new Date(now.getTime() + limits.leaseSeconds * 1000);
      await trx
        .updateTable("export_jobs")
        .set((eb) => ({
          status: "gerando",
          started_at: now,
          claimed_until: lease,
          bytes: 0,
          tentativas: eb("tentativas", "+", 1),
        }))
        .where("id", "=", job.id)
        .execute();
      const { tentativas: _, ...claimed } = job;
      return { ...claimed, lease };
    }
  });
}

const keepUntil = (now: Date, hours = EXPORT_LIMITS.keepHours) => new Date(now.getTime() + hours * 3_600_000);

/** Moves a running job's lease on and records its progress, while this runner still holds it. */
async function renewLease(db: Kysely<DB>, id: number, lease: Date, next: Date, bytes: number) {
  const result = await db
    .updateTable("export_jobs")
    .set({ claimed_until: next, bytes })
    .where("id", "=", id)
    .where("claimed_until", "=", lease)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * What running one export gave: its file, or the page's refusal (a period too long, a PDF too large …). A `status` of
 * 500 or more is no refusal but the route's failure (it threw, or answered 5xx): its `message` is then the error for
 * the log (never shown), and the job fails as any failure does (logged with its id, `EXPORT_TEXTS.failed`).
 */
export type ExportOutcome =
  | { kind: "file"; fileName: string; contentType: string; body: ReadableStream<Uint8Array> }
  | { kind: "refused"; message: string | null; back: string | null; status?: number | null };

/** Runs one export as its requester, with a session token made for the run (revoked when the file is written). */
export type RenderExport = (job: Claimed & { token: string }, signal: AbortSignal) => Promise<ExportOutcome>;

/**
 * A session of the requester for one run: checked by the API as any other (an inactive user's is refused), valid
 * for the run's time limit at most, revoked at its end.
 */
async function openRunSession(db: Kysely<DB>, userId: number, lifetimeMs: number) {
  const { token, hash } = newToken();
  const now = new Date();
  await db
    .insertInto("sessions")
    .values({
      token_hash: hash,
      user_id: userId,
      // A back-office session: the run opens the web app's pages, as its requester does.
      kind: "painel",
      created_at: now,
      expires_at: new Date(now.getTime() + lifetimeMs),
    })
    .execute();
  return {
    token,
    close: () => db.deleteFrom("sessions").where("token_hash", "=", hash).execute(),
  };
}

export type ExportRunner = {
  /** Starts waiting jobs while this process has room (after a job is queued; the poll does it too). */
  kick(): void;
  stats(): { running: number };
  /** Stops taking jobs, stops the running ones and hands them back to the queue. */
  close(): Promise<void>;
};

/**
 * The runner of one process. `render` runs an export as its requester (server.ts: the web app's own route, through
 * Remix, with a session made for the run). The file's bytes are read with a turn of the event loop between chunks,
 * so other requests are answered while an export is written.
 */
export function createExportRunner(deps: {
  db: Kysely<DB>;
  storage: Storage;
  render: RenderExport;
  logger?: Logger;
  limits?: Partial<ExportLimits>;
  pollMs?: number;
}): ExportRunner {
  const limits = { ...EXPORT_LIMITS, ...deps.limits };
  const { db, storage, logger } = deps;
  const running = new Map<number, { stop: AbortController; done: Promise<void>; lease: () => Date }>();
  let closed = false;
  let filling: Promise<void> | null = null;

  async function fill() {
    while (!closed && running.size < limits.perProcess) {
      // A job still running here is never claimed a second time, even if its lease ran out meanwhile.
      const job = await claimNextExport(db, new Date(), limits, [...running.keys()]);
      if (!job) return;
      const stop = new AbortController();
      const entry = { stop, lease: () => job.lease, done: Promise.resolve() };
      entry.done = run(job, stop, (lease) => (entry.lease = () => lease)).finally(() => {
        if (running.get(job.id) === entry) running.delete(job.id);
        kick();
      });
      running.set(job.id, entry);
    }
  }

  function kick() {
    if (closed || filling) return;
    filling = fill()
      .catch((error) => logger?.warn({ err: error }, "export jobs: could not claim"))
      .finally(() => (filling = null));
  }

  async function run(job: Claimed & { lease: Date }, stop: AbortController, leased: (lease: Date) => void) {
    let lease = job.lease;
    let bytes = 0;
    /**
     * The file's chunks as the route writes them, counted (the progress figure and the size limit), with a turn of
     * the event loop between two so other requests are answered meanwhile. A stop or a file past maxBytes throws,
     * and the route's body is cancelled so it stops writing.
     */
    async function* counted(body: ReadableStream<Uint8Array>) {
      const reader = body.getReader();
      let ended = false;
      try {
        for (;;) {
          if (stop.signal.aborted) throw stop.signal.reason ?? new Error("stopped");
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          if (bytes > limits.maxBytes) throw new TooLarge();
          yield value;
          await nextTurn();
        }
        ended = true;
      } finally {
        if (!ended) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
      }
    }
    let lost = false;
    // A renewal on its way holds the lease the finish must name: the finish waits for it.
    let renewing: Promise<void> | null = null;
    const renew = setInterval(
      () => {
        if (renewing) return;
        const next = new Date(Date.now() + limits.leaseSeconds * 1000);
        renewing = renewLease(db, job.id, lease, next, bytes)
          .then((held) => {
            if (held) {
              lease = next;
              leased(next);
            } else {
              lost = true;
              stop.abort();
            }
          })
          .catch((error) => logger?.warn({ err: error, job: job.id }, "export jobs: lease not renewed"))
          .finally(() => (renewing = null));
      },
      Math.max(1000, (limits.leaseSeconds * 1000) / 3),
    );
    const overTime = setTimeout(() => stop.abort(new Error("time")), limits.timeLimitMs);
    const finish = async (values: {
      status: "pronta" | "falhou";
      mensagem?: string;
      voltar?: string | null;
      codigo_http?: number | null;
      arquivo?: string;
      nome_arquivo?: string;
      tipo_arquivo?: string;
    }) => {
      clearInterval(renew);
      await renewing;
      const now = new Date();
      const result = await db
        .updateTable("export_jobs")
        .set({ ...values, bytes, finished_at: now, expires_at: keepUntil(now, limits.keepHours), claimed_until: null })
        .where("id", "=", job.id)
        .where("claimed_until", "=", lease)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    };
    let session: Awaited<ReturnType<typeof openRunSession>> | undefined;
    try {
      session = await openRunSession(db, job.user_id, limits.timeLimitMs + 60_000);
      const outcome = await deps.render({ ...job, token: session.token }, stop.signal);
      if (outcome.kind === "refused" && outcome.status && outcome.status >= 500)
        throw new RouteFailed(outcome.status, outcome.message);
      if (outcome.kind === "refused") {
        await finish({
          status: "falhou",
          mensagem: outcome.message ?? EXPORT_TEXTS.failed,
          voltar: outcome.back,
          codigo_http: outcome.status && outcome.status >= 400 && outcome.status < 500 ? outcome.status : null,
        });
        return;
      }
      const extension = outcome.fileName.split(".").pop()?.toLowerCase() ?? "bin";
      // Written to storage as it comes, never held whole; past maxBytes the write fails and leaves no file.
      const name = await storage.saveStream(
        EXPORT_FOLDER,
        /^[a-z0-9]+$/.test(extension) ? extension : "bin",
        counted(outcome.body),
      );
      const stored = await finish({
        status: "pronta",
        arquivo: name,
        nome_arquivo: outcome.fileName,
        tipo_arquivo: outcome.contentType,
      });
      if (!stored) await storage.remove(EXPORT_FOLDER, name).catch(() => undefined);
    } catch (error) {
      if (closed && !lost) return; // handed back to the queue by close()
      if (lost) return logger?.warn({ job: job.id }, "export job taken over by another instance");
      const tooLarge = error instanceof TooLarge;
      const tooLong = stop.signal.aborted && !closed;
      if (!tooLarge && !tooLong) logger?.error({ err: error, job: job.id }, "export job failed");
      await finish({
        status: "falhou",
        mensagem: tooLarge
          ? EXPORT_TEXTS.tooLarge(Math.round(limits.maxBytes / 1024 / 1024))
          : tooLong
            ? EXPORT_TEXTS.tooLong(Math.round(limits.timeLimitMs / 60_000))
            : EXPORT_TEXTS.failed,
      }).catch((failure) => logger?.error({ err: failure, job: job.id }, "export job: failure not recorded"));
    } finally {
      clearInterval(renew);
      clearTimeout(overTime);
      await session
        ?.close()
        .catch((error) => logger?.warn({ err: error, job: job.id }, "export job: session not revoked"));
    }
  }

  const poll = setInterval(kick, deps.pollMs ?? 2_000);
  poll.unref();

  return {
    kick,
    stats: () => ({ running: running.size }),
    async close() {
      closed = true;
      clearInterval(poll);
      await filling;
      const jobs = [...running.entries()];
      for (const [, job] of jobs) job.stop.abort();
      await Promise.all(jobs.map(([, job]) => job.done));
      // Back to the queue as they were, those this process still holds (not one another instance took over): the
      // next instance, or the next start, runs them.
      for (const [id, job] of jobs) {
        await db
          .updateTable("export_jobs")
          .set((eb) => ({ status: "na_fila", claimed_until: null, bytes: 0, tentativas: eb("tentativas", "-", 1) }))
          .where("id", "=", id)
          .where("status", "=", "gerando")
          .where("claimed_until", "=", job.lease())
          .execute();
      }
    },
  };
}

class TooLarge extends Error {}

/** The route of an export threw or answered 5xx: logged as the error it was (its stack when it had one). */
class RouteFailed extends Error {
  constructor(status: number, detail: string | null) {
    const firstLine = detail?.split("\n", 1)[0];
    super(`the export route answered ${status}${firstLine ? `: ${firstLine}` : ""}`);
    this.name = "RouteFailed";
    if (detail?.includes("\n")) this.stack = `${this.message}\n${detail.slice(firstLine!.length + 1)}`;
  }
}

/** Removes the jobs (and files) past their keeping time: at most `limit` per call (the minute sweep calls it). */
export async function sweepExpiredExports(db: Kysely<DB>, storage: Storage, now: Date, limit = 200) {
  const expired = await db
    .selectFrom("export_jobs")
    .select(["id", "arquivo"])
    .where("expires_at", "<", now)
    .orderBy("expires_at")
    .limit(limit)
    .execute();
  for (const job of expired) if (job.arquivo) await storage.remove(EXPORT_FOLDER, job.arquivo).catch(() => undefined);
  if (expired.length)
    await db
      .deleteFrom("export_jobs")
      .where(
        "id",
        "in",
        expired.map((job) => job.id),
      )
      .execute();
  return expired.length;
}
