/**
 * Long exports as jobs (docs/exports.md), the API's side: POST /api/exportacoes queues a download for its requester
 * (only they read it or its file), the queue bounds waiting jobs per user, claims bound running jobs per company
 * (and take again a job whose instance died), and the runner of a process runs at most `perProcess` at once as the
 * requester, with a session made for the run, stores the file, records refusals and failures, hands its jobs back
 * when it closes; the sweep removes expired jobs and their files. The render callback here is the test's own: a
 * real outcome (a stream of known bytes, a refusal, a throw) in place of the web app's route.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";

import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";

import { ApiError } from "../../api/lib/errors.ts";
import {
  claimNextExport,
  createExportRunner,
  enqueueExport,
  EXPORT_FOLDER,
  EXPORT_LIMITS,
  EXPORT_TEXTS,
  sweepExpiredExports,
  type ExportLimits,
  type ExportOutcome,
  type ExportRunner,
  type RenderExport,
} from "../../api/services/export-jobs.ts";
import { createDiskStorage, type Storage } from "../../api/services/storage.ts";
import { useTestApi } from "../support/api.ts";
import { COMPANY_A, COMPANY_B, companyId, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const INVALID = "Endereço de exportação inválido.";
const CAMINHO = "/historico-ambientes/exportar.xlsx?de=2026-01-01&ate=2026-12-31";

type Who = { id: number; companyId: number; token: string };
/** Two users of the first company (admin, auditor) and the admin of the other one. */
let admin: Who;
let auditor: Who;
let outra: Who;
let storage: Storage;
let runners: ExportRunner[] = [];

beforeAll(async () => {
  const who = async (email: string, company: string): Promise<Who> => ({
    id: (await userByEmail(t.db, email)).id,
    companyId: await companyId(t.db, company),
    token: await t.signIn(email),
  });
  admin = await who("admin@demo.com.br", COMPANY_A);
  auditor = await who("auditor@demo.com.br", COMPANY_A);
  outra = await who("outra@demo.com.br", COMPANY_B);
  storage = createDiskStorage(t.storageDir);
});

// Every test starts from an empty queue: a runner claims any waiting job of the database.
beforeEach(async () => {
  await t.db.deleteFrom("export_jobs").execute();
});

afterEach(async () => {
  await Promise.all(runners.map((runner) => runner.close()));
  runners = [];
});

const jobRow = (id: number) => t.db.selectFrom("export_jobs").selectAll().where("id", "=", id).executeTakeFirst();
const jobsOf = (userId: number) =>
  t.db.selectFrom("export_jobs").selectAll().where("user_id", "=", userId).orderBy("id").execute();

/** The stored export files (none when the folder was never made). */
async function storedFiles() {
  return readdir(path.join(t.storageDir, EXPORT_FOLDER)).catch(() => [] as string[]);
}

function queue(who: Who, caminho = CAMINHO, limits?: Pick<ExportLimits, "perUser">) {
  return enqueueExport(
    t.db,
    { companyId: who.companyId, userId: who.id, caminho, origem: "http://test.local" },
    limits,
  );
}

/** A row in the queue written directly, for states the queue reaches over time (a dead instance's lease). */
async function insertJob(who: Who, values: Partial<{ status: string; tentativas: number; created_at: Date }> = {}) {
  const row = await t.db
    .insertInto("export_jobs")
    .values({ company_id: who.companyId, user_id: who.id, caminho: CAMINHO, origem: "http://test.local", ...values })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Waits (bounded) until the job's row satisfies `done`; answers the last row read. */
async function rowWhen(id: number, done: (row: NonNullable<Awaited<ReturnType<typeof jobRow>>>) => boolean) {
  let row = await jobRow(id);
  for (let tries = 0; tries < 400 && !(row && done(row)); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    row = await jobRow(id);
  }
  return row;
}
const finished = (id: number) => rowWhen(id, (row) => row.status === "pronta" || row.status === "falhou");

/** A promise the test settles: a render held until the test lets it go. */
function gate() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/** Settles when the signal aborts, as a real render stops when its runner stops it. */
const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new Error("aborted"));
    signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
  });

/** A file outcome whose body streams `chunks` (known bytes). */
function fileOutcome(chunks: Uint8Array[], fileName = "historico-ambientes.xlsx"): ExportOutcome {
  return {
    kind: "file",
    fileName,
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    body: new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    }),
  };
}

const KNOWN = [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), new Uint8Array([250, 251, 252, 0, 10, 13])];
const KNOWN_BYTES = new Uint8Array([...KNOWN[0]!, ...KNOWN[1]!]);

function runner(render: RenderExport, limits?: Partial<ExportLimits>) {
  // A long poll: the tests drive the runner with kick() (and a finished job kicks the next).
  const created = createExportRunner({ db: t.db, storage, render, limits, pollMs: 60_000 });
  runners.push(created);
  return created;
}

describe("POST /api/exportacoes", () => {
  test("queues the download for the caller: their user and company, 'na_fila', its place behind its company's jobs ahead", async () => {
    // Another tenant's waiting job is not counted (nor shown): only the company's own queue is ahead of it.
    await queue(outra);
    const ahead = await queue(auditor);
    const answer = await t.post("/api/exportacoes", { caminho: CAMINHO }, { token: admin.token });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ caminho: CAMINHO, status: "na_fila", posicao: 1, bytes: 0, nomeArquivo: null });
    const row = await jobRow(answer.body.id);
    expect(row).toMatchObject({
      user_id: admin.id,
      company_id: admin.companyId,
      caminho: CAMINHO,
      origem: t.origin,
      status: "na_fila",
      tentativas: 0,
      arquivo: null,
      claimed_until: null,
      expires_at: null,
    });
    const read = await t.get(`/api/exportacoes/${answer.body.id}`, { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: answer.body.id, status: "na_fila", posicao: 1 });
    const list = await t.get("/api/exportacoes", { token: admin.token });
    expect(list.body.items.map((item: { id: number }) => item.id)).toEqual([answer.body.id]);
    expect(list.body.items).not.toContainEqual(expect.objectContaining({ id: ahead.id }));
  });

  test("nobody but the requester reads the job or its file: another user of the company and another tenant get 404", async () => {
    const answer = await t.post("/api/exportacoes", { caminho: CAMINHO }, { token: admin.token });
    expect(answer.status).toBe(202);
    const id = answer.body.id as number;
    // Finished, so the file exists and its absence for the others is the rule's, not the state's.
    const arquivo = await storage.save(EXPORT_FOLDER, "xlsx", KNOWN_BYTES);
    await t.db
      .updateTable("export_jobs")
      .set({ status: "pronta", arquivo, nome_arquivo: "historico.xlsx", tipo_arquivo: "application/octet-stream" })
      .where("id", "=", id)
      .execute();
    expect((await t.get(`/api/exportacoes/${id}/arquivo`, { token: admin.token })).status).toBe(200);
    for (const other of [auditor, outra]) {
      for (const url of [`/api/exportacoes/${id}`, `/api/exportacoes/${id}/arquivo`]) {
        const read = await t.get(url, { token: other.token });
        expect({ url, status: read.status, body: read.body }).toEqual({
          url,
          status: 404,
          body: { message: EXPORT_TEXTS.notFound },
        });
      }
      const list = await t.get("/api/exportacoes", { token: other.token });
      expect(list.status).toBe(200);
      expect(list.body.items).toEqual([]);
    }
  });

  test("anything but a path of the site ending in .xlsx or .pdf is 400 and queues nothing", async () => {
    for (const caminho of [
      "/setores",
      "http://evil/x.xlsx",
      "//evil.example/x.xlsx",
      "/setores/exportar.xlsx#x",
      "../x.pdf",
      "/../x.pdf",
      "/setores/exportar.xlsx.exe",
    ]) {
      const answer = await t.post("/api/exportacoes", { caminho }, { token: admin.token });
      expect({ caminho, status: answer.status, message: answer.body.message }).toEqual({
        caminho,
        status: 400,
        message: INVALID,
      });
    }
    expect(await jobsOf(admin.id)).toEqual([]);
  });

  test("the caller's list holds their latest 20 jobs, newest first", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 21; i++) ids.push(await insertJob(admin, { status: "pronta" }));
    const list = await t.get("/api/exportacoes", { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: { id: number }) => item.id)).toEqual(ids.slice(1).reverse());
    expect(list.body.items).not.toContainEqual(expect.objectContaining({ id: ids[0] }));
  });

  test(`a caller with ${EXPORT_LIMITS.perUser} jobs waiting is answered 429 and nothing more is queued`, async () => {
    await t.db
      .insertInto("export_jobs")
      .values(
        Array.from({ length: EXPORT_LIMITS.perUser }, () => ({
          company_id: admin.companyId,
          user_id: admin.id,
          caminho: CAMINHO,
          origem: "http://test.local",
        })),
      )
      .execute();
    const answer = await t.post("/api/exportacoes", { caminho: CAMINHO }, { token: admin.token });
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({
      message: `Você já tem ${EXPORT_LIMITS.perUser} exportações na fila. Aguarde algumas terminarem antes de pedir outra.`,
    });
    expect(await jobsOf(admin.id)).toHaveLength(EXPORT_LIMITS.perUser);
  });
});

describe("the per-user bound (enqueueExport)", () => {
  test("the 4th waiting job of a user with perUser 3 is refused (429) and not written; another user still queues", async () => {
    for (let i = 0; i < 3; i++) await queue(admin, CAMINHO, { perUser: 3 });
    const refused = await queue(admin, CAMINHO, { perUser: 3 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 429,
      message: "Você já tem 3 exportações na fila. Aguarde algumas terminarem antes de pedir outra.",
    });
    expect(await jobsOf(admin.id)).toHaveLength(3);
    await queue(auditor, CAMINHO, { perUser: 3 });
    expect(await jobsOf(auditor.id)).toHaveLength(1);
  });

  test("finished jobs do not count: a user whose 3 jobs are done queues again", async () => {
    for (let i = 0; i < 3; i++) await queue(admin, CAMINHO, { perUser: 3 });
    await t.db.updateTable("export_jobs").set({ status: "pronta" }).where("user_id", "=", admin.id).execute();
    await queue(admin, CAMINHO, { perUser: 3 });
    expect((await jobsOf(admin.id)).map((job) => job.status)).toEqual(["pronta", "pronta", "pronta", "na_fila"]);
  });
});

describe("claimNextExport", () => {
  const limits = { perCompany: 1, leaseSeconds: 60, attempts: 2 };
  const at = (seconds: number) => new Date(Date.UTC(2026, 5, 1, 12, 0, seconds));

  test("one running job per company: the next claim skips the busy company's queue, then nothing until it finishes", async () => {
    const a1 = await insertJob(admin, { created_at: at(0) });
    const a2 = await insertJob(auditor, { created_at: at(1) });
    const b1 = await insertJob(outra, { created_at: at(2) });
    const now = at(10);
    expect((await claimNextExport(t.db, now, limits))?.id).toBe(a1);
    expect((await claimNextExport(t.db, now, limits))?.id).toBe(b1);
    expect(await claimNextExport(t.db, now, limits)).toBeNull();
    expect(await jobRow(a2)).toMatchObject({ status: "na_fila", tentativas: 0, started_at: null });
    expect(await jobRow(a1)).toMatchObject({
      status: "gerando",
      tentativas: 1,
      claimed_until: at(70),
      started_at: now,
    });
    await t.db.updateTable("export_jobs").set({ status: "pronta", claimed_until: null }).where("id", "=", a1).execute();
    expect((await claimNextExport(t.db, now, limits))?.id).toBe(a2);
  });

  test("users take turns: a colleague's one file goes before the second of a user who asked for three", async () => {
    const a1 = await insertJob(admin, { created_at: at(0) });
    const a2 = await insertJob(admin, { created_at: at(1) });
    await insertJob(admin, { created_at: at(2) });
    const colleague = await insertJob(auditor, { created_at: at(3) });
    expect((await claimNextExport(t.db, at(10), limits))?.id).toBe(a1);
    await t.db.updateTable("export_jobs").set({ status: "pronta", claimed_until: null }).where("id", "=", a1).execute();
    expect((await claimNextExport(t.db, at(11), limits))?.id).toBe(colleague);
    await t.db
      .updateTable("export_jobs")
      .set({ status: "pronta", claimed_until: null })
      .where("id", "=", colleague)
      .execute();
    expect((await claimNextExport(t.db, at(12), limits))?.id).toBe(a2);
  });

  test("a job still running in this process is not claimed again by it, even with its lease run out", async () => {
    const job = await insertJob(admin, { created_at: at(0) });
    expect((await claimNextExport(t.db, at(10), limits))?.id).toBe(job);
    expect(await claimNextExport(t.db, at(200), limits, [job])).toBeNull();
  });

  test("a running job whose lease ran out (its instance died) is claimed again, its second attempt", async () => {
    const job = await insertJob(admin, { created_at: at(0) });
    const first = await claimNextExport(t.db, at(10), limits);
    expect(first?.id).toBe(job);
    // Still held: nothing to claim for the company.
    expect(await claimNextExport(t.db, at(69), limits)).toBeNull();
    const again = await claimNextExport(t.db, at(71), limits);
    expect(again).toMatchObject({ id: job, lease: at(131) });
    expect(await jobRow(job)).toMatchObject({ status: "gerando", tentativas: 2, claimed_until: at(131) });
  });

  test("a job whose lease ran out at the attempts limit is failed as interrupted, and the next job is claimed", async () => {
    const job = await insertJob(admin, { created_at: at(0) });
    const next = await insertJob(admin, { created_at: at(1) });
    await claimNextExport(t.db, at(10), limits);
    await claimNextExport(t.db, at(71), limits);
    const claimed = await claimNextExport(t.db, at(200), limits);
    expect(claimed?.id).toBe(next);
    const row = await jobRow(job);
    expect(row).toMatchObject({
      status: "falhou",
      mensagem: EXPORT_TEXTS.interrupted,
      tentativas: 2,
      claimed_until: null,
      finished_at: at(200),
      arquivo: null,
    });
    expect(row?.expires_at?.getTime()).toBe(at(200).getTime() + EXPORT_LIMITS.keepHours * 3_600_000);
  });
});

describe("the runner", () => {
  test("runs a job as its requester: the file in storage, 'pronta' with its name, type and size, the same bytes for the requester", async () => {
    const { id } = await queue(admin);
    let sessionDuringRun: { status: number; email?: string } | undefined;
    let runToken = "";
    const run = runner(async (job) => {
      runToken = job.token;
      const session = await t.get("/api/sessions/current", { token: job.token });
      sessionDuringRun = { status: session.status, email: session.body.user?.email };
      expect(job).toMatchObject({ id, user_id: admin.id, company_id: admin.companyId, caminho: CAMINHO });
      return fileOutcome(KNOWN);
    });
    run.kick();
    const row = await finished(id);
    expect(row).toMatchObject({
      status: "pronta",
      nome_arquivo: "historico-ambientes.xlsx",
      tipo_arquivo: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      mensagem: null,
      claimed_until: null,
    });
    expect(Number(row!.bytes)).toBe(KNOWN_BYTES.byteLength);
    expect(await storedFiles()).toContain(row!.arquivo);
    expect(new Uint8Array(await readFile(path.join(t.storageDir, EXPORT_FOLDER, row!.arquivo!)))).toEqual(KNOWN_BYTES);

    const response = await t.fetch("GET", `/api/exportacoes/${id}/arquivo`, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="historico-ambientes.xlsx"');
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(KNOWN_BYTES);
    // The run's session was the requester's, and it ends with the run.
    expect(sessionDuringRun).toEqual({ status: 200, email: "admin@demo.com.br" });
    expect((await t.get("/api/sessions/current", { token: runToken })).status).toBe(401);
  });

  test("the file goes to storage as the route writes it, not held to its end: written while the rest is still to come, then byte for byte, and downloaded with its Content-Length", async () => {
    const { id } = await queue(admin);
    const first = randomBytes(3 * 1024 * 1024);
    const rest = randomBytes(2 * 1024 * 1024 + 5);
    const held = gate();
    runner(async () => ({
      ...fileOutcome([]),
      body: new ReadableStream<Uint8Array>({
        async start(controller) {
          for (let at = 0; at < first.byteLength; at += 64 * 1024)
            controller.enqueue(first.subarray(at, at + 64 * 1024));
          await held.promise;
          controller.enqueue(rest);
          controller.close();
        },
      }),
    })).kick();
    // While the route still holds its last chunk, what it wrote is already on disk (aside, not yet under its name).
    const folder = path.join(t.storageDir, EXPORT_FOLDER);
    const writtenAside = async () => {
      for (const name of await storedFiles())
        if (name.startsWith(".")) return (await stat(path.join(folder, name))).size;
      return 0;
    };
    let aside = 0;
    for (let tries = 0; tries < 400 && aside < first.byteLength; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      aside = await writtenAside();
    }
    expect(aside).toBe(first.byteLength);
    expect((await jobRow(id))!.arquivo).toBeNull();
    held.release();

    const row = await finished(id);
    const whole = Buffer.concat([first, rest]);
    expect(row!.status).toBe("pronta");
    expect(Number(row!.bytes)).toBe(whole.byteLength);
    const files = await storedFiles();
    expect(files).toContain(row!.arquivo);
    expect(files.filter((name) => name.startsWith("."))).toEqual([]);
    expect((await readFile(path.join(folder, row!.arquivo!))).equals(whole)).toBe(true);
    const response = await t.fetch("GET", `/api/exportacoes/${id}/arquivo`, { token: admin.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(whole.byteLength));
    expect(Buffer.from(await response.arrayBuffer()).equals(whole)).toBe(true);
  });

  test("perProcess 1: while one job runs, a job of another company waits in the queue; both finish after", async () => {
    const first = await queue(admin);
    const second = await queue(outra);
    const held = gate();
    let active = 0;
    let mostAtOnce = 0;
    const started: number[] = [];
    const run = runner(
      async (job, signal) => {
        started.push(job.id);
        mostAtOnce = Math.max(mostAtOnce, ++active);
        try {
          if (job.id === first.id) await Promise.race([held.promise, aborted(signal)]);
          return fileOutcome(KNOWN);
        } finally {
          active--;
        }
      },
      { perProcess: 1 },
    );
    run.kick();
    await rowWhen(first.id, (row) => row.status === "gerando");
    for (let i = 0; i < 20 && started.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    // Kicked again while full: the second job is not claimed (another company, so only perProcess holds it).
    run.kick();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(started).toEqual([first.id]);
    expect(run.stats()).toEqual({ running: 1 });
    expect(await jobRow(second.id)).toMatchObject({ status: "na_fila", tentativas: 0, started_at: null });
    held.release();
    expect((await finished(first.id))?.status).toBe("pronta");
    expect((await finished(second.id))?.status).toBe("pronta");
    expect(started).toEqual([first.id, second.id]);
    expect(mostAtOnce).toBe(1);
  });

  test("a page's refusal fails the job with its message and the page to go back to, and leaves no file", async () => {
    const before = await storedFiles();
    const { id } = await queue(admin);
    const message = "O período do relatório não pode passar de 366 dias.";
    const back = "/historico-ambientes?de=2020-01-01&ate=2026-12-31";
    runner(async () => ({ kind: "refused", message, back })).kick();
    const row = await finished(id);
    expect(row).toMatchObject({ status: "falhou", mensagem: message, voltar: back, arquivo: null, nome_arquivo: null });
    const read = await t.get(`/api/exportacoes/${id}`, { token: admin.token });
    expect(read.body).toMatchObject({ status: "falhou", mensagem: message, voltar: back });
    expect((await t.get(`/api/exportacoes/${id}/arquivo`, { token: admin.token })).status).toBe(404);
    expect(await storedFiles()).toEqual(before);
  });

  test("a render that throws fails the job with the generic message and leaves no file", async () => {
    const before = await storedFiles();
    const { id } = await queue(admin);
    runner(async () => {
      throw new Error("the web app's route crashed");
    }).kick();
    const row = await finished(id);
    expect(row).toMatchObject({
      status: "falhou",
      mensagem: EXPORT_TEXTS.failed,
      voltar: null,
      arquivo: null,
      claimed_until: null,
    });
    expect(row?.expires_at).not.toBeNull();
    expect(await storedFiles()).toEqual(before);
  });

  test("a file over maxBytes fails the job as too large and nothing is stored", async () => {
    const before = await storedFiles();
    const { id } = await queue(admin);
    let cancelled = false;
    runner(
      async () => ({
        ...fileOutcome([]),
        body: new ReadableStream<Uint8Array>({
          pull(controller) {
            controller.enqueue(new Uint8Array(8));
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
      { maxBytes: 10 },
    ).kick();
    const row = await finished(id);
    expect(row).toMatchObject({
      status: "falhou",
      mensagem: EXPORT_TEXTS.tooLarge(Math.round(10 / 1024 / 1024)),
      arquivo: null,
      nome_arquivo: null,
    });
    expect(await storedFiles()).toEqual(before);
    // The endless body was stopped, not read to its end.
    expect(cancelled).toBe(true);
  });

  test("a render still running at the time limit is stopped and the job fails as too long", async () => {
    const { id } = await queue(admin);
    let stopped = false;
    runner(
      async (_job, signal) => {
        await aborted(signal).catch((error: unknown) => {
          stopped = true;
          throw error;
        });
        return fileOutcome(KNOWN);
      },
      { timeLimitMs: 50 },
    ).kick();
    const row = await finished(id);
    expect(row).toMatchObject({
      status: "falhou",
      mensagem: EXPORT_TEXTS.tooLong(Math.round(50 / 60_000)),
      arquivo: null,
      claimed_until: null,
    });
    expect(stopped).toBe(true);
  });

  test("close() while a job runs hands it back to the queue as it was, and a new runner finishes it", async () => {
    const before = await storedFiles();
    const { id } = await queue(admin);
    const never = gate();
    const first = runner(async (_job, signal) => {
      await Promise.race([never.promise, aborted(signal)]);
      return fileOutcome(KNOWN);
    });
    first.kick();
    await rowWhen(id, (row) => row.status === "gerando");
    expect(await jobRow(id)).toMatchObject({ status: "gerando", tentativas: 1 });
    await first.close();
    expect(await jobRow(id)).toMatchObject({
      status: "na_fila",
      tentativas: 0,
      claimed_until: null,
      finished_at: null,
      mensagem: null,
      arquivo: null,
    });
    expect(await storedFiles()).toEqual(before);
    runner(async () => fileOutcome(KNOWN)).kick();
    expect(await finished(id)).toMatchObject({ status: "pronta", tentativas: 1, mensagem: null });
  });
});

describe("sweepExpiredExports", () => {
  test("removes the jobs past their keeping time and their files, and keeps the others and theirs", async () => {
    const now = new Date();
    const expiredFile = await storage.save(EXPORT_FOLDER, "xlsx", KNOWN_BYTES);
    const keptFile = await storage.save(EXPORT_FOLDER, "pdf", KNOWN_BYTES);
    const expired = await insertJob(admin, { status: "pronta" });
    const kept = await insertJob(admin, { status: "pronta" });
    const waiting = await insertJob(auditor);
    await t.db
      .updateTable("export_jobs")
      .set({ arquivo: expiredFile, expires_at: new Date(now.getTime() - 1000) })
      .where("id", "=", expired)
      .execute();
    await t.db
      .updateTable("export_jobs")
      .set({ arquivo: keptFile, expires_at: new Date(now.getTime() + 3_600_000) })
      .where("id", "=", kept)
      .execute();
    expect(await sweepExpiredExports(t.db, storage, now)).toBe(1);
    expect(await jobRow(expired)).toBeUndefined();
    expect(await storedFiles()).not.toContain(expiredFile);
    expect(await jobRow(kept)).toMatchObject({ status: "pronta", arquivo: keptFile });
    expect(await storedFiles()).toContain(keptFile);
    expect(new Uint8Array((await storage.read(EXPORT_FOLDER, keptFile))!)).toEqual(KNOWN_BYTES);
    expect(await jobRow(waiting)).toMatchObject({ status: "na_fila" });
  });
});
