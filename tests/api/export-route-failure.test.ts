/**
 * An export whose route fails (throws, or answers 5xx) inside its job (docs/exports.md): the browser only sees a 303
 * to the progress page, so the failure must show where an operator and the web fuzz look. The web app's side
 * (`exportLoader` run as the runner's request) hands the error and the status to the runner instead of calling it a
 * refusal; the runner logs one line with the job's id and the error, and records the job failed with the generic
 * message and neither a status nor a way back (what the web fuzz counts as a 5xx). A 4xx refusal stays a refusal.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import pino from "pino";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";

import {
  createExportRunner,
  enqueueExport,
  EXPORT_REFUSED_HEADER,
  EXPORT_TEXTS,
  type ExportRunner,
  type RenderExport,
} from "../../api/services/export-jobs.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { exportLoader } from "../../app/lib/export-jobs.server.ts";
import { useTestApi } from "../support/api.ts";
import { COMPANY_A, companyId, userByEmail } from "../support/demo.ts";

const t = useTestApi();

let admin: { id: number; companyId: number };
let runners: ExportRunner[] = [];
let logged: Array<Record<string, unknown> & { msg: string }> = [];

beforeAll(async () => {
  admin = { id: (await userByEmail(t.db, "admin@demo.com.br")).id, companyId: await companyId(t.db, COMPANY_A) };
});

beforeEach(async () => {
  await t.db.deleteFrom("export_jobs").execute();
  logged = [];
});

afterEach(async () => {
  await Promise.all(runners.map((runner) => runner.close()));
  runners = [];
});

function runner(render: RenderExport) {
  const logger = pino({ base: undefined }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const created = createExportRunner({
    db: t.db,
    storage: createDiskStorage(t.storageDir),
    render,
    logger,
    pollMs: 60_000,
  });
  runners.push(created);
  return created;
}

async function finished(id: number) {
  for (let tries = 0; tries < 400; tries++) {
    const row = await t.db.selectFrom("export_jobs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    if (row.status === "pronta" || row.status === "falhou") return row;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job ${id} did not finish`);
}

const queue = () =>
  enqueueExport(t.db, {
    companyId: admin.companyId,
    userId: admin.id,
    caminho: "/setores/exportar.xlsx",
    origem: "http://test.local",
  });

/** The web app's download loader run as the runner runs it (`context.exportJob` set), with `produce` as its route. */
async function runRoute(produce: (args: LoaderFunctionArgs) => Promise<Response>, signal?: AbortSignal) {
  const args = {
    request: new Request("http://test.local/setores/exportar.xlsx", { signal }),
    params: {},
    context: { exportJob: { id: 1, token: "x" } },
  } as unknown as LoaderFunctionArgs;
  return exportLoader(produce)(args);
}

describe("the web app's side: a failing route is handed over as a failure, not a refusal", () => {
  test("a thrown error goes as status 500 with its stack", async () => {
    const answer = await runRoute(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'nome')");
    });
    expect(answer.headers.get(EXPORT_REFUSED_HEADER)).toBe("1");
    const body = (await answer.json()) as { message: string; back: null; status: number };
    expect(body).toMatchObject({ back: null, status: 500 });
    expect(body.message).toMatch(/^TypeError: Cannot read properties of undefined \(reading 'nome'\)\n\s+at /);
  });

  test("a 5xx answer (thrown or returned) goes with its status and words", async () => {
    for (const answerOf of [
      async () => {
        throw Response.json({ message: "Banco de dados indisponível." }, { status: 503 });
      },
      async () => Response.json({ message: "Banco de dados indisponível." }, { status: 503 }),
    ]) {
      const body = await (await runRoute(answerOf)).json();
      expect(body).toEqual({
        message: JSON.stringify({ message: "Banco de dados indisponível." }),
        back: null,
        status: 503,
      });
    }
  });

  test("a 4xx answer stays a refusal with its status and words", async () => {
    const body = await (
      await runRoute(async () => {
        throw new Response("Filial não encontrada.", { status: 404 });
      })
    ).json();
    expect(body).toEqual({ message: "Filial não encontrada.", back: null, status: 404 });
  });

  test("an error of a run stopped by its signal is thrown on, for the runner to tell why it stopped", async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(
      runRoute(async () => {
        throw new Error("aborted");
      }, stop.signal),
    ).rejects.toThrow("aborted");
  });
});

describe("the runner: a route's failure is logged with the job's id and recorded as no refusal", () => {
  test("a route that threw: one error line with the job and the route's error, the job failed without status or way back", async () => {
    const { id } = await queue();
    const stack = "TypeError: boom\n    at produce (app/routes/setores.exportar[.xlsx].ts:7:11)";
    runner(async () => ({ kind: "refused", message: stack, back: null, status: 500 })).kick();
    const row = await finished(id);
    expect(row).toMatchObject({ status: "falhou", mensagem: EXPORT_TEXTS.failed, codigo_http: null, voltar: null });
    const errors = logged.filter((line) => line.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: "export job failed", job: id });
    const err = errors[0]!.err as { message: string; stack: string };
    expect(err.message).toBe("the export route answered 500: TypeError: boom");
    expect(err.stack).toContain("at produce (app/routes/setores.exportar[.xlsx].ts:7:11)");
  });

  test("a route that answered 503: logged with its status and words, the job failed with the generic message", async () => {
    const { id } = await queue();
    runner(async () => ({
      kind: "refused",
      message: '{"message":"PDF indisponível"}',
      back: null,
      status: 503,
    })).kick();
    expect(await finished(id)).toMatchObject({ status: "falhou", mensagem: EXPORT_TEXTS.failed, codigo_http: null });
    expect(logged.filter((line) => line.level === 50)).toMatchObject([
      {
        msg: "export job failed",
        job: id,
        err: { message: 'the export route answered 503: {"message":"PDF indisponível"}' },
      },
    ]);
  });

  test("a 4xx refusal is no failure: kept with its status and words, nothing logged", async () => {
    const { id } = await queue();
    runner(async () => ({ kind: "refused", message: "Filial não encontrada.", back: null, status: 404 })).kick();
    expect(await finished(id)).toMatchObject({
      status: "falhou",
      mensagem: "Filial não encontrada.",
      codigo_http: 404,
    });
    expect(logged.filter((line) => Number(line.level) >= 40)).toEqual([]);
  });
});
