/**
 * Issue 26 items 3 and 4a (docs/backups.md, docs/moving-to-postgresql.md): `npm run backup` against a RUNNING server
 * on the embedded database (the server dumps it itself, over DATA_DIR/control.sock), `npm run restore` into a new
 * DATA_DIR (every table's rows and a photo's bytes), its refusals, and `npm run move-to-postgres` into a fresh
 * PostgreSQL database on which migrate() then applies nothing.
 *
 * The PostgreSQL of the move: OPS_DATABASE_URL, else DATABASE_URL's server, else postgres@127.0.0.1:5432 (databases
 * named ops_move_* are created and dropped there). With DATABASE_URL set (CI's second API run) the PGlite parts are
 * skipped, the first run has done them; the backup's refusal with DATABASE_URL runs in both.
 */
import { execFile } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { sql } from "kysely";
import pg from "pg";
import pino from "pino";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

import type { BackupManifest } from "../../api/db/backup-archive.ts";
import { openDatabase, type Database } from "../../api/db/connection.ts";
import { askControlSocket, controlSocketPath, startControlSocket } from "../../api/db/control-socket.ts";
import { simulateDemoHistory } from "../../api/db/demo-simulator.ts";
import { migrate } from "../../api/db/migrate.ts";
import { moveToPostgres } from "../../api/db/move-to-postgres.ts";
import { OpsRefusal } from "../../api/db/ops-support.ts";
import { restoreBackup } from "../../api/db/restore.ts";
import { countTables, runOn, type TableCounts } from "../../api/db/table-counts.ts";
import { createDiskStorage } from "../../api/services/storage.ts";
import { startServer } from "../../server.ts";
import { writeTestDatabase } from "../support/db.ts";
import { testServerConfig } from "../support/server-config.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PGLITE_RUN = !process.env.DATABASE_URL;
const ADMIN_URL =
  process.env.OPS_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const dirs: string[] = [];
const scratch = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), name));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

/** One of the commands as npm runs it (tsx), with DATA_DIR and without the suite's DATABASE_URL unless given. */
function runCommand(script: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", path.join(root, "api", "db", script), ...args],
      { cwd: root, env: { ...process.env, DATABASE_URL: "", STORAGE_URL: "", SESSION_SECRET: "", ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(!PGLITE_RUN)("backup of a running server, restore, move to PostgreSQL", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let dataDir: string;
  let archive: string;
  let restoredDir: string;
  let serverCounts: TableCounts;

  beforeAll(async () => {
    dataDir = scratch("backup-live-");
    // The suite's seeded demo database (tests/support/db.ts) as this DATA_DIR's, instead of seeding anew.
    if (!(await writeTestDatabase(dataDir))) throw new Error("the PGlite run needs the PGlite dump");
    server = await startServer(testServerConfig(dataDir));
    // Ten days of the demo's executions through the services: bookings, history and photos in DATA_DIR/uploads.
    const simulated = await simulateDemoHistory(server.database.db, {
      now: new Date(),
      storage: createDiskStorage(path.join(dataDir, "uploads")),
      days: 10,
    });
    expect(simulated.photos).toBeGreaterThan(10);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  test("the control socket is this user's only (0600)", () => {
    const mode = statSync(controlSocketPath(dataDir)).mode & 0o777;
    expect(mode.toString(8)).toBe("600");
  });

  test("a second server on the same DATA_DIR stops before opening the database", async () => {
    await expect(startServer(testServerConfig(dataDir))).rejects.toThrow(
      `Another server (pid ${process.pid}) is running on DATA_DIR=${dataDir}`,
    );
  });

  test("npm run backup: the running server writes the archive and keeps answering", async () => {
    const out = scratch("backup-out-");
    const backup = runCommand("backup-cli.ts", ["--out", out], { DATA_DIR: dataDir });
    // Requests during the backup wait for the dump (it holds the only connection), then all succeed.
    let finished = false;
    const statuses: number[] = [];
    void backup.then(() => (finished = true));
    while (!finished) {
      statuses.push((await fetch(`${server.url}/healthz`)).status);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const run = await backup;
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/by the running server \(pid \d+\)/);
    expect(new Set(statuses)).toEqual(new Set([200]));

    const files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^limpeza-backup-\d{4}-\d{2}-\d{2}-\d{6}\.tar\.gz$/);
    archive = path.join(out, files[0]!);
    expect(statSync(archive).mode & 0o777).toBe(0o600);

    const entries: string[] = [];
    await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
    expect(entries).toEqual(expect.arrayContaining(["database.sql", "manifest.json", "session-secret"]));
    expect(entries.some((entry) => entry.startsWith("uploads/photos/"))).toBe(true);

    // The server's session is as before the dump: prepared statements, settings and no transaction left open.
    serverCounts = await countTables(runOn(server.database.db));
    const users = await server.database.db.selectFrom("users").select("id").execute();
    expect(users.length).toBe(serverCounts.users);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    const manifestDir = scratch("backup-manifest-");
    await tar.extract({ file: archive, cwd: manifestDir }, ["manifest.json", "database.sql"]);
    const manifest = JSON.parse(readFileSync(path.join(manifestDir, "manifest.json"), "utf8")) as BackupManifest;
    expect(manifest).toMatchObject({
      format: 1,
      database: { kind: "pglite" },
      uploads: "included",
      sessionSecret: true,
    });
    expect(manifest.tables).toEqual(serverCounts);
    expect(manifest.migrations.length).toBeGreaterThan(0);
    // PostgreSQL 15 and 16 refuse pg_dump 17's `SET transaction_timeout` (embedded-dump.ts).
    expect(readFileSync(path.join(manifestDir, "database.sql"), "utf8")).not.toContain("transaction_timeout");
  }, 60_000);

  test("npm run restore into a new DATA_DIR: every table's rows, a photo's bytes, the session secret", async () => {
    restoredDir = path.join(scratch("backup-restored-"), "data");
    const run = await runCommand("restore-cli.ts", [archive, "--data-dir", restoredDir], {});
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`All ${Object.keys(serverCounts).length} tables match`);

    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      expect(await countTables(runOn(restored.db))).toEqual(serverCounts);
      const photo = await restored.db
        .selectFrom("history")
        .select("image")
        .where("image", "is not", null)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      const bytes = readFileSync(path.join(restoredDir, "uploads", "photos", photo.image!));
      expect(bytes.length).toBeGreaterThan(100);
      expect(bytes.equals(readFileSync(path.join(dataDir, "uploads", "photos", photo.image!)))).toBe(true);
    } finally {
      await restored.close();
    }
    expect(readFileSync(path.join(restoredDir, "session-secret"), "utf8")).toBe(
      readFileSync(path.join(dataDir, "session-secret"), "utf8"),
    );
    expect(readdirSync(restoredDir).sort()).toEqual(["pgdata", "session-secret", "uploads"]);
  }, 60_000);

  test("restore refuses a DATA_DIR that holds a database, or one a server runs on", async () => {
    const run = await runCommand("restore-cli.ts", [archive, "--data-dir", restoredDir], {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("already holds a database (pgdata/)");

    const refusal = await restoreBackup({ file: archive, dataDir }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpsRefusal);
    expect((refusal as Error).message).toMatch(/A server is running on DATA_DIR=.* \(pid \d+\)/);
  }, 30_000);

  describe("npm run move-to-postgres", () => {
    const prefix = `ops_move_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const names = { stopped: `${prefix}_stopped`, live: `${prefix}_live` };
    const targetUrl = (name: string) => {
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      return url.toString();
    };
    beforeAll(async () => {
      await withAdmin(async (client) => {
        for (const name of Object.values(names)) await client.query(`create database ${name}`);
      });
    });
    afterAll(async () => {
      await withAdmin(async (client) => {
        for (const name of Object.values(names)) await client.query(`drop database if exists ${name} with (force)`);
      });
    });

    test("the stopped restored DATA_DIR into an empty database: same counts, then migrate() applies nothing", async () => {
      const url = targetUrl(names.stopped);
      const run = await runCommand("move-to-postgres-cli.ts", ["--database-url", url], { DATA_DIR: restoredDir });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`All ${Object.keys(serverCounts).length} tables match`);

      const moved = await openDatabase({ databaseUrl: url });
      try {
        expect(await countTables(runOn(moved.db))).toEqual(serverCounts);
        expect(await migrate(moved)).toEqual([]);
        // The sequences go on after the moved rows: the next id is a free one.
        const { rows } = await sql<{ free: boolean }>`
          select nextval('history_id_seq') > (select max(id) from history) as free`.execute(moved.db);
        expect(rows[0]!.free).toBe(true);
      } finally {
        await moved.close();
      }
    }, 60_000);

    test("from the running server (its dump over the control socket)", async () => {
      const result = await moveToPostgres({ dataDir, databaseUrl: targetUrl(names.live) });
      expect(result.moved).toBe(true);
      expect(result.serverPid).toBe(process.pid);
      expect(Object.fromEntries(result.comparison.map((row) => [row.table, row.found]))).toEqual(serverCounts);
    }, 60_000);

    test("a database that already has tables is refused, and nothing is written", async () => {
      const url = targetUrl(names.stopped);
      const run = await runCommand("move-to-postgres-cli.ts", [], { DATA_DIR: restoredDir, DATABASE_URL: url });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("The target database is not empty");
    }, 30_000);
  });

  describe("an archive whose manifest's counts differ from its rows", () => {
    const target = `ops_move_${process.pid}_${Math.random().toString(36).slice(2, 8)}_edited`;
    const targetUrl = () => Object.assign(new URL(ADMIN_URL), { pathname: `/${target}` }).toString();
    let edited: string;

    beforeAll(async () => {
      // The archive above with one user more in its manifest than its database.sql holds.
      const unpacked = scratch("backup-edited-");
      await tar.extract({ file: archive, cwd: unpacked });
      const file = path.join(unpacked, "manifest.json");
      const manifest = JSON.parse(readFileSync(file, "utf8")) as BackupManifest;
      manifest.tables.users = manifest.tables.users! + 1;
      writeFileSync(file, JSON.stringify(manifest));
      edited = path.join(scratch("backup-edited-out-"), "edited.tar.gz");
      await tar.create({ gzip: true, file: edited, cwd: unpacked }, readdirSync(unpacked));
      await withAdmin((client) => client.query(`create database ${target}`));
    });
    afterAll(async () => {
      await withAdmin((client) => client.query(`drop database if exists ${target} with (force)`));
    });

    test("npm run restore exits 1 and writes no database into the new DATA_DIR", async () => {
      const dir = path.join(scratch("backup-edited-restore-"), "data");
      const run = await runCommand("restore-cli.ts", [edited, "--data-dir", dir], {});
      expect([run.code, run.stderr.includes("The restored rows differ from the backup's manifest")]).toEqual([1, true]);
      expect(existsSync(path.join(dir, "pgdata"))).toBe(false);
    }, 60_000);

    test("npm run move-to-postgres exits 1 and leaves the target database empty", async () => {
      // A server's control socket that answers with the edited archive (what a running server's dump would be).
      const dataDir = scratch("backup-edited-move-");
      const socket = createServer((request, response) => {
        let text = "";
        request.on("data", (chunk: Buffer) => (text += chunk.toString()));
        request.on("end", () => {
          response.setHeader("content-type", "application/json");
          if (request.method === "GET") return response.end(JSON.stringify({ pid: process.pid }));
          const out = path.join((JSON.parse(text) as { out: string }).out, "edited.tar.gz");
          copyFileSync(edited, out);
          response.end(JSON.stringify({ file: out, pid: process.pid }));
        });
      });
      await new Promise<void>((resolve) => socket.listen(controlSocketPath(dataDir), resolve));
      try {
        const run = await runCommand("move-to-postgres-cli.ts", [], { DATA_DIR: dataDir, DATABASE_URL: targetUrl() });
        expect([run.code, run.stderr.includes("The row counts differ")]).toEqual([1, true]);
      } finally {
        await new Promise((resolve) => socket.close(resolve));
      }
      const client = new pg.Client({ connectionString: targetUrl() });
      await client.connect();
      try {
        const tables = await client.query("select tablename from pg_catalog.pg_tables where schemaname = 'public'");
        expect(tables.rows).toEqual([]);
      } finally {
        await client.end();
      }
    }, 60_000);
  });
});

describe("the control socket at start", () => {
  test("a stale socket file is replaced; one that answers stops a second server", async () => {
    const dataDir = scratch("control-");
    const socketPath = controlSocketPath(dataDir);
    // A process killed while listening leaves its socket file behind, with nobody answering.
    const leftover = `require("node:net").createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, "SIGKILL"))`;
    await new Promise((resolve) => execFile(process.execPath, ["-e", leftover], resolve));
    expect(statSync(socketPath).isSocket()).toBe(true);

    const options = {
      config: { dataDir, storage: { kind: "disk" as const, root: path.join(dataDir, "uploads") } },
      database: {} as Database,
      logger: pino({ level: "silent" }),
    };
    const control = await startControlSocket(options);
    try {
      expect((await askControlSocket(dataDir, "GET", "/status"))?.body).toEqual({ status: "ready", pid: process.pid });
      await expect(startControlSocket(options)).rejects.toThrow(/Another server \(pid \d+\) is running on DATA_DIR=/);
    } finally {
      await control.close();
    }
    expect(existsSync(socketPath)).toBe(false);
    expect(await askControlSocket(dataDir, "GET", "/status")).toBeNull();
  });
});

describe("npm run backup with DATABASE_URL", () => {
  test("refuses and gives the pg_dump command", async () => {
    const dataDir = scratch("backup-pg-");
    mkdirSync(path.join(dataDir, "uploads"));
    writeFileSync(path.join(dataDir, "session-secret"), "a-secret-of-a-development-server-32", { mode: 0o600 });
    const run = await runCommand("backup-cli.ts", [], {
      DATA_DIR: dataDir,
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("pg_dump --format=custom --no-owner --no-privileges");
    expect(run.stderr).toContain(`-C ${dataDir} uploads session-secret)`);
  }, 30_000);

  test("creates no DATA_DIR/session-secret", async () => {
    const dataDir = scratch("backup-pg-");
    await runCommand("backup-cli.ts", [], {
      DATA_DIR: dataDir,
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
    });
    expect(existsSync(path.join(dataDir, "session-secret"))).toBe(false);
  }, 30_000);
});

/**
 * The lines `npm run backup` prints with DATABASE_URL, run as an operator pastes them (`sh -c`, the usual umask 022),
 * against the suite's PostgreSQL server: they must work and leave files only their owner reads, as the embedded
 * backups are.
 */
describe("npm run backup with DATABASE_URL: the printed lines, run as printed", () => {
  /** The printed line that holds `command`, run in a fresh folder with DATABASE_URL; the files it wrote. */
  async function runPrinted(command: string, env: Record<string, string>) {
    const dataDir = scratch("backup-pg-");
    mkdirSync(path.join(dataDir, "uploads", "photos"), { recursive: true });
    writeFileSync(path.join(dataDir, "uploads", "photos", "a.jpg"), "jpeg bytes");
    const printed = await runCommand("backup-cli.ts", [], {
      DATA_DIR: dataDir,
      DATABASE_URL: ADMIN_URL,
      ...env,
    });
    const line = printed.stderr.split("\n").find((text) => text.includes(command));
    expect(line, printed.stderr).toBeDefined();
    const cwd = scratch("backup-pg-out-");
    const run = await new Promise<Run>((resolve) =>
      execFile(
        "sh",
        ["-c", `umask 022; ${line}`],
        { cwd, env: { ...process.env, DATABASE_URL: ADMIN_URL } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    return { run, files: readdirSync(cwd).map((name) => path.join(cwd, name)) };
  }

  test("with SESSION_SECRET set, the files line archives the uploads and no session-secret", async () => {
    const { run, files } = await runPrinted("tar -czf", { SESSION_SECRET: "a-production-secret-of-at-least-32-chars" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const entries: string[] = [];
    await tar.list({ file: files[0]!, onReadEntry: (entry) => void entries.push(entry.path) });
    expect(entries).toContain("uploads/photos/a.jpg");
    expect(entries.filter((entry) => entry.includes("session-secret"))).toEqual([]);
  }, 30_000);

  test("the files line writes its archive 0600", async () => {
    const { files } = await runPrinted("tar -czf", { SESSION_SECRET: "a-production-secret-of-at-least-32-chars" });
    expect(files.map((file) => statSync(file).mode & 0o777)).toEqual([0o600]);
  }, 30_000);

  test("the pg_dump line writes its dump 0600", async () => {
    const { run, files } = await runPrinted("pg_dump --format=custom", {});
    expect(run.code, run.stderr).toBe(0);
    expect(files.map((file) => statSync(file).mode & 0o777)).toEqual([0o600]);
  }, 60_000);
});

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `The move test needs a PostgreSQL server where it may create databases named ops_move_*: ${ADMIN_URL} did ` +
        `not answer (${(error as Error).message}). Point OPS_DATABASE_URL at one.`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
