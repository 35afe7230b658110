/**
 * A/B of two trees of the product: this one and another (a git worktree of an earlier commit, built), served side
 * by side, loaded in interleaved rounds, compared by the server's CPU per request (bench/README.md 'A/B').
 * Usage: npx tsx bench/ab.ts <other-tree>
 * AB_DB=pg (default; AB_DATABASE_URL, else DATABASE_URL, else the local server) puts both servers on one temporary
 * PostgreSQL database (migrated by both: this tree's migrations apply to the other's database too), and the figure
 * is the Node process's CPU only, not the database server's: use AB_DB=pglite, where each server has its own
 * embedded database in its own process, for a change to queries. AB_ROUNDS (6, even so that each tree goes first
 * as often) measured rounds after one discarded warm-up round, AB_SECONDS (5) per load, AB_CASES (sign-in,faq,list).
 */
import { existsSync } from "node:fs";
import path from "node:path";

import { DEMO_PASSWORD } from "../api/db/seed.ts";

import { importSectors, SEARCH_TERM, WORDS } from "./catalogues.ts";
import {
  apiSignIn,
  fmt,
  formatTable,
  median,
  runLoad,
  signIn,
  startServer,
  tempDir,
  temporaryDatabase,
  type RunningServer,
} from "./lib.ts";

/** The scale bench's cases: the sign-in page, the signed-in FAQ, the list page 20 of 10,000 sorted and searched. */
const CASES = {
  "sign-in": { path: "/", signedIn: false },
  faq: { path: "/faq", signedIn: true },
  list: { path: `/setores?q=${SEARCH_TERM}&ordem=nome&dir=desc&tamanho=20`, signedIn: true },
} as const;
type CaseName = keyof typeof CASES;
const SECTORS = 10_000;

const other = process.argv[2] ? path.resolve(process.argv[2]) : "";
if (!other || !existsSync(path.join(other, "server.ts")) || !existsSync(path.join(other, "build", "index.js"))) {
  console.error("usage: npx tsx bench/ab.ts <other-tree>   (a built checkout: server.ts and build/index.js)");
  process.exit(2);
}
const rounds = Number(process.env.AB_ROUNDS ?? 6);
const seconds = Number(process.env.AB_SECONDS ?? 5);
const cases = (process.env.AB_CASES ?? "sign-in,faq,list").split(",") as CaseName[];
const unknown = cases.filter((name) => !(name in CASES));
if (unknown.length)
  throw new Error(`unknown AB_CASES: ${unknown.join(", ")} (known: ${Object.keys(CASES).join(", ")})`);
const onPostgres = (process.env.AB_DB ?? "pg") === "pg";

const database = onPostgres
  ? await temporaryDatabase(
      process.env.AB_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    )
  : undefined;
const trees = [
  { name: "other", script: path.join(other, "server.ts") },
  { name: "this", script: "server.ts" },
];
const servers = new Map<string, { server: RunningServer; cookie: string }>();
try {
  for (const [index, tree] of trees.entries()) {
    // On PostgreSQL the first server writes the demo data and the sectors; the second reads the same database.
    const fills = !onPostgres || index === 0;
    const server = await startServer({
      dataDir: tempDir(`ab-${tree.name}`).dir,
      demoData: fills,
      label: `ab-${tree.name}`,
      databaseUrl: database?.url,
      script: tree.script,
    });
    servers.set(tree.name, { server, cookie: "" });
    if (fills) {
      const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
      const names = Array.from({ length: SECTORS - 16 }, (_, i) => `Setor ab ${i} ala ${WORDS[i % WORDS.length]}`);
      await importSectors(server.url, token, names);
    }
    servers.get(tree.name)!.cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
  }

  // cpu[case][tree] = ms per request, one per measured round.
  const cpu = new Map<string, number[]>();
  for (let round = 0; round <= rounds; round++) {
    const order = round % 2 ? [...trees].reverse() : trees;
    for (const name of cases) {
      for (const tree of order) {
        const { server, cookie } = servers.get(tree.name)!;
        const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
        if (CASES[name].signedIn) headers.cookie = cookie;
        const load = await runLoad(server.url, {
          path: CASES[name].path,
          headers,
          connections: 10,
          durationS: seconds,
          warmupS: 1,
          serverPid: server.child.pid,
        });
        if (load.non2xx || load.errors) throw new Error(`${tree.name} ${name}: ${JSON.stringify(load.statusCodes)}`);
        if (load.cpuMsPerRequest === undefined) throw new Error("no CPU figure: /proc/<pid>/stat is not readable");
        if (round > 0) {
          const key = `${name}|${tree.name}`;
          cpu.set(key, [...(cpu.get(key) ?? []), load.cpuMsPerRequest]);
        }
      }
    }
    console.error(round === 0 ? "warm-up round done" : `round ${round} of ${rounds} done`);
  }

  const rows = cases.map((name) => {
    const before = cpu.get(`${name}|other`)!;
    const after = cpu.get(`${name}|this`)!;
    const change = (median(after) - median(before)) / median(before);
    return [
      name,
      fmt.ratio(median(before)),
      fmt.ratio(median(after)),
      `${change > 0 ? "+" : ""}${(change * 100).toFixed(1)} %`,
      before.map(fmt.ratio).join(" "),
      after.map(fmt.ratio).join(" "),
    ];
  });
  console.log(`\nserver CPU ms per request, median of ${rounds} rounds (${database ? "PostgreSQL" : "PGlite"})`);
  console.log(formatTable(["page", ">other", ">this", ">change", "other's rounds", "this tree's rounds"], rows));
  if (cases.includes("list") && cases.includes("sign-in")) {
    // Issue 9's ratio, list req/s ÷ sign-in req/s, as a CPU-bound server would serve them: sign-in's CPU per
    // request over the list page's, round by round.
    for (const tree of trees) {
      const signInCpu = cpu.get(`sign-in|${tree.name}`)!;
      const ratios = cpu.get(`list|${tree.name}`)!.map((list, round) => signInCpu[round]! / list);
      console.log(`list req/s ÷ sign-in req/s from CPU (${tree.name}): ${fmt.ratio(median(ratios))}`);
    }
  }
} finally {
  for (const { server } of servers.values()) await server.stop();
  await database?.drop();
}
