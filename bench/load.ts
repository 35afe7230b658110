/**
 * Issue 7's load check: 50 connections for 30 s on the sign-in page, a signed-in list page and an API list, then
 * the list again while 20 connections flood POST /api/password/reset with bad tokens. Passes when no request of the
 * measured loads fails (0 errors, 0 non-2xx) and the list's p95 under the flood is at most 2× its p95 without.
 *
 * The bench runner calls measureSecurityLoad(baseUrl, auth) on a running server; `tsx bench/load.ts` runs it
 * alone on a fresh demo server (BENCH_LOAD_CONNECTIONS, BENCH_LOAD_DURATION, BENCH_LOAD_FLOOD change the load).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

import { DEMO_PASSWORD } from "../api/db/seed.ts";

import {
  apiSignIn,
  fmt,
  formatTable,
  runCleanups,
  runLoad,
  signIn,
  startServer,
  tempDir,
  type LoadResult,
  type RequestSpec,
} from "./lib.ts";

export type SecurityLoadOptions = { connections: number; durationS: number; warmupS: number; floodConnections: number };
export const SECURITY_LOAD_DEFAULTS: SecurityLoadOptions = {
  connections: 50,
  durationS: 30,
  warmupS: 2,
  floodConnections: 20,
};

export type SecurityLoadRow = { name: string; spec: RequestSpec; result: LoadResult; flooded: boolean };
export type SecurityLoadReport = { rows: SecurityLoadRow[]; problems: string[]; table: string };

/** `cookie` is a signed-in 'sessao=…' pair, `token` an API bearer token of the same kind of user. */
export async function measureSecurityLoad(
  baseUrl: string,
  auth: { cookie: string; token: string },
  options: Partial<SecurityLoadOptions> = {},
  progress: (message: string) => void = () => {},
): Promise<SecurityLoadReport> {
  const settings = { ...SECURITY_LOAD_DEFAULTS, ...options };
  const cases: { name: string; spec: RequestSpec }[] = [
    { name: "sign-in page (GET /)", spec: { path: "/" } },
    { name: "list page (GET /setores)", spec: { path: "/setores", headers: { cookie: auth.cookie } } },
    {
      name: "API list (GET /api/setor)",
      spec: { path: "/api/setor?page=1&size=20", headers: { authorization: `Bearer ${auth.token}` } },
    },
  ];
  const rows: SecurityLoadRow[] = [];
  const problems: string[] = [];
  const load = (spec: RequestSpec, connections = settings.connections, durationS = settings.durationS) =>
    runLoad(baseUrl, { ...spec, connections, durationS, warmupS: settings.warmupS });

  for (const { name, spec } of cases) {
    progress(`load: ${name}, ${settings.connections} connections for ${settings.durationS} s`);
    rows.push({ name, spec, result: await load(spec), flooded: false });
  }

  // The flood runs a little longer than the measured load, so it covers all of it.
  const flood: RequestSpec = {
    method: "POST",
    path: "/api/password/reset",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: "token-falso", password: "novaSenha1", passwordConfirmation: "novaSenha1" }),
  };
  for (const { name, spec } of cases.slice(1)) {
    progress(`load: ${name} while ${settings.floodConnections} connections flood /api/password/reset`);
    const flooding = runLoad(baseUrl, {
      ...flood,
      connections: settings.floodConnections,
      durationS: settings.durationS + settings.warmupS + 2,
      warmupS: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    rows.push({ name: `${name} + reset flood`, spec, result: await load(spec), flooded: true });
    const floodResult = await flooding;
    const floodErrors = Object.entries(floodResult.statusCodes).filter(([status]) => Number(status) >= 500);
    if (floodResult.errors || floodErrors.length)
      problems.push(`reset flood: ${floodResult.errors} errors, ${JSON.stringify(floodResult.statusCodes)}`);
  }

  for (const row of rows) {
    if (row.result.errors || row.result.non2xx)
      problems.push(`${row.name}: ${row.result.errors} errors, ${row.result.non2xx} non-2xx`);
  }
  for (const row of rows.filter((candidate) => candidate.flooded)) {
    const quiet = rows.find((candidate) => !candidate.flooded && candidate.spec === row.spec)!;
    const ratio = row.result.p95 / quiet.result.p95;
    if (!(ratio <= 2))
      problems.push(`${row.name}: p95 ${fmt.ms(row.result.p95)} ms is ${fmt.ratio(ratio)}× the quiet p95`);
  }

  const table = formatTable(
    ["case", ">req/s", ">p50 ms", ">p95 ms", ">p99 ms", ">errors", ">non-2xx", ">p95 vs quiet"],
    rows.map((row) => {
      const quiet = rows.find((candidate) => !candidate.flooded && candidate.spec === row.spec)!;
      return [
        row.name,
        fmt.int(row.result.rps),
        fmt.ms(row.result.p50),
        fmt.ms(row.result.p95),
        fmt.ms(row.result.p99),
        fmt.int(row.result.errors),
        fmt.int(row.result.non2xx),
        row.flooded ? `${fmt.ratio(row.result.p95 / quiet.result.p95)}×` : "",
      ];
    }),
  );
  return { rows, problems, table };
}

async function main() {
  const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
  const data = tempDir("load");
  const server = await startServer({ dataDir: data.dir, demoData: true, label: "load" });
  try {
    const cookie = await signIn(server.url, "principal@demo.com.br", DEMO_PASSWORD);
    const token = await apiSignIn(server.url, "principal@demo.com.br", DEMO_PASSWORD);
    const report = await measureSecurityLoad(
      server.url,
      { cookie, token },
      {
        connections: number("BENCH_LOAD_CONNECTIONS", SECURITY_LOAD_DEFAULTS.connections),
        durationS: number("BENCH_LOAD_DURATION", SECURITY_LOAD_DEFAULTS.durationS),
        floodConnections: number("BENCH_LOAD_FLOOD", SECURITY_LOAD_DEFAULTS.floodConnections),
      },
      (message) => console.error(`[bench] ${message}`),
    );
    console.log(`\nLoad check (issue 7)\n\n${report.table}\n`);
    if (report.problems.length) {
      console.log(`PROBLEMS\n${report.problems.map((problem) => `  - ${problem}`).join("\n")}`);
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    runCleanups();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    runCleanups();
    process.exit(1);
  });
}
