/**
 * The old system's import (issue 24 part 4; docs/legacy-data.md): `npm run import:legacy` of a 100,000-row file
 * (BENCH_LEGACY_ROWS) into the demo database, the real CLI in a child process (node --import tsx, as npm runs it), then
 * the same file again (nothing new). Rows per second from the CLI's own import time (reading, checking and writing;
 * not node's start or opening the database), and the child's peak RSS: VmHWM of /proc/<pid>/status, read every 50 ms
 * while it runs (the high-water mark only grows, so the last reading is the peak up to ~50 ms before the end).
 *
 * `BENCH_ONLY=legacy npx tsx bench/run.ts`
 */
import { spawn } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

import { openDatabase } from "../api/db/connection.ts";
import { demoLegacyRooms, legacyCsv, legacyDemoRows } from "../api/db/demo-legacy.ts";
import { migrate } from "../api/db/migrate.ts";
import { seedDemo } from "../api/db/seed.ts";

import { formatTable, ROOT, tempDir } from "./lib.ts";

export type LegacyRun = {
  run: string;
  rows: number;
  inserted: number;
  importS: number;
  /** The CLI's own CPU time (user + system) for the import: what the machine's load does not inflate. */
  cpuS: number;
  wallS: number;
  peakRssMb: number;
  exitCode: number;
};

function vmHwmKb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** One run of the CLI on `file`: its output, time and peak memory. */
function runCli(file: string, dataDir: string, label: string): Promise<LegacyRun> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    const child = spawn(process.execPath, ["--import", "tsx", "api/db/legacy-import-cli.ts", file], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    let peakKb = 0;
    const poll = setInterval(() => {
      peakKb = Math.max(peakKb, vmHwmKb(child.pid!) ?? 0);
    }, 50);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearInterval(poll);
      const wallS = (performance.now() - began) / 1000;
      const match = /(\d+) linha\(s\) no arquivo: (\d+) nova\(s\).* em ([\d.]+) s \(CPU ([\d.]+) s\)\./.exec(out);
      if (!match) {
        reject(new Error(`the import answered ${code}: ${out}`));
        return;
      }
      resolve({
        run: label,
        rows: Number(match[1]),
        inserted: Number(match[2]),
        importS: Number(match[3]),
        cpuS: Number(match[4]),
        wallS,
        peakRssMb: peakKb / 1024,
        exitCode: code ?? -1,
      });
    });
  });
}

export async function measureLegacy(rows: number, progress: (message: string) => void) {
  const dir = tempDir("legacy");
  try {
    progress("legacy import: seeding the demo database (without the simulator's history)");
    const database = await openDatabase({ dataDir: dir.dir });
    let file: string;
    try {
      await migrate(database);
      await seedDemo(database, { history: false });
      const csv = legacyCsv(legacyDemoRows(await demoLegacyRooms(database.db), rows, 1_000_001, 7));
      file = path.join(dir.dir, "legado.csv");
      writeFileSync(file, csv);
    } finally {
      await database.close();
    }
    const bytes = statSync(file).size;
    progress(`legacy import: ${rows} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB, first run`);
    const first = await runCli(file, dir.dir, "1st run (all new)");
    progress("legacy import: the same file again");
    const second = await runCli(file, dir.dir, "2nd run (same file)");
    // The CLI's floor: node, tsx and PGlite opening the same database, for one row.
    const one = path.join(dir.dir, "uma-linha.csv");
    writeFileSync(
      one,
      readFileSync(file, "utf8")
        .split("\r\n")
        .slice(0, 2)
        .join("\r\n")
        .replace(/^1000001;/m, "999999;"),
    );
    progress("legacy import: a one-row file (the CLI's floor)");
    const floor = await runCli(one, dir.dir, "1 row (the floor)");
    return { rows, bytes, runs: [first, second, floor] };
  } finally {
    dir.remove();
  }
}

export function legacyReport(result: Awaited<ReturnType<typeof measureLegacy>>) {
  return formatTable(
    ["run", ">rows", ">new", ">import s", ">rows/s", ">CPU s", ">rows/CPU s", ">wall s", ">peak RSS MB"],
    result.runs.map((run) => [
      run.run,
      String(run.rows),
      String(run.inserted),
      run.importS.toFixed(1),
      Math.round(run.rows / Math.max(run.importS, 0.05)).toLocaleString("en-US"),
      run.cpuS.toFixed(1),
      Math.round(run.rows / Math.max(run.cpuS, 0.05)).toLocaleString("en-US"),
      run.wallS.toFixed(1),
      run.peakRssMb.toFixed(0),
    ]),
  );
}
