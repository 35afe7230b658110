/**
 * Where a page's CPU goes: starts the server on a demo database grown to ROWS sectors, loads PATH (signed in as the
 * admin) for a few seconds with the CPU profiler on for the measured load only (bench/profile-window.ts), stops the
 * server and prints the functions with the most self time, grouped by package.
 * Usage: npx tsx bench/profile.ts [path] [rows]   (default: the scale bench's list page, 10,000)
 * PROFILE_SECONDS (25) sets the load time, PROFILE_SIGNED_OUT=1 loads it without a session, PROFILE_DATABASE_URL runs
 * it on PostgreSQL (a perf_* database is created and dropped), PROFILE_OUT=file.cpuprofile keeps the profile for
 * Chrome DevTools.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { DEMO_PASSWORD } from "../api/db/seed.ts";

import { importSectors, WORDS } from "./catalogues.ts";
import { apiSignIn, fmt, runLoad, signIn, sleep, startServer, tempDir, temporaryDatabase } from "./lib.ts";

const target = process.argv[2] ?? "/setores?q=pediatrica&ordem=nome&dir=desc&tamanho=20";
const rows = Number(process.argv[3] ?? 10_000);
const profileDir = tempDir("profile");
const profileFile = path.join(profileDir.dir, "load.cpuprofile");
const dataDir = tempDir("profile-data");
const database = process.env.PROFILE_DATABASE_URL
  ? await temporaryDatabase(process.env.PROFILE_DATABASE_URL)
  : undefined;
const server = await startServer({
  dataDir: dataDir.dir,
  demoData: true,
  label: "profile",
  databaseUrl: database?.url,
  nodeArgs: [
    "--import",
    "./bench/profile-window.ts",
    ...(process.env.PROFILE_PRELOAD ? ["--import", process.env.PROFILE_PRELOAD] : []),
  ],
  env: { PROFILE_FILE: profileFile },
});
try {
  const token = await apiSignIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
  const cookie = await signIn(server.url, "admin@demo.com.br", DEMO_PASSWORD);
  const names = Array.from({ length: rows - 16 }, (_, i) => `Setor perfil ${i} ala ${WORDS[i % WORDS.length]}`);
  if (names.length > 0) await importSectors(server.url, token, names);
  // PROFILE_SIGNED_OUT=1: a visitor without a session (the sign-in page, the room page).
  const headers: Record<string, string> = process.env.PROFILE_SIGNED_OUT
    ? { "accept-encoding": "gzip" }
    : { cookie, authorization: `Bearer ${token}`, "accept-encoding": "gzip" };
  await runLoad(server.url, { path: target, headers, connections: 10, durationS: 3, warmupS: 0 });
  server.child.kill("SIGUSR2"); // profiler on
  const result = await runLoad(server.url, {
    path: target,
    headers,
    connections: 10,
    durationS: Number(process.env.PROFILE_SECONDS ?? 25),
    warmupS: 0,
  });
  server.child.kill("SIGUSR2"); // profiler off, profile written
  for (let waited = 0; !existsSync(profileFile) && waited < 10_000; waited += 100) await sleep(100);
  console.log(`${target}: ${fmt.int(result.rps)} req/s, statuses ${JSON.stringify(result.statusCodes)}`);
} finally {
  await server.stop();
  dataDir.remove();
  await database?.drop();
}

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number };
if (!existsSync(profileFile)) throw new Error("no profile written (bench/profile-window.ts)");
const text = readFileSync(profileFile, "utf8");
if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, text); // open it in Chrome DevTools
const profile = JSON.parse(text) as { nodes: Node[] };
profileDir.remove();
const total = profile.nodes.reduce((sum, node) => sum + node.hitCount, 0);
const place = (url: string) => {
  const match = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match) return match[1]!;
  if (url.startsWith("node:")) return "node";
  return url ? path.relative(process.cwd(), url.replace(/^file:\/\//, "")) : "(native)";
};
const byFunction = new Map<string, number>();
const byPlace = new Map<string, number>();
for (const node of profile.nodes) {
  const where = place(node.callFrame.url);
  const name = `${node.callFrame.functionName || "(anonymous)"} ${where}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + node.hitCount);
  byPlace.set(where, (byPlace.get(where) ?? 0) + node.hitCount);
}
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, hits]) => `${((100 * hits) / total).toFixed(1).padStart(5)}%  ${name}`);
console.log("\nself time by place\n" + top(byPlace, 25).join("\n"));
console.log("\nself time by function\n" + top(byFunction, 40).join("\n"));
