/** What the operations commands (backup, restore, move-to-postgres) share: configuration, arguments, who has DATA_DIR. */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

import { loadConfig } from "../config.ts";

import { askControlSocket } from "./control-socket.ts";

/** A refusal to print as is, without a stack (exit code 1). */
export class OpsRefusal extends Error {}

/**
 * The server's configuration, without its side effect: loadConfig writes DATA_DIR/session-secret when SESSION_SECRET
 * is unset, and a tool must not create one (restore brings the archive's; a backup of a server that has
 * SESSION_SECRET would add a file it never uses). These tools never sign cookies nor build links, so neither
 * SESSION_SECRET nor PUBLIC_URL is asked of them in production.
 */
export function loadToolConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig({
    ...env,
    SESSION_SECRET: env.SESSION_SECRET || "unused-by-operations-commands-".padEnd(32, "x"),
    PUBLIC_URL: env.PUBLIC_URL || "http://unused-by-operations-commands.invalid",
  });
}

/** The command's arguments (npm's `--` dropped); `--help` prints the usage and exits. */
export function parseToolArgs<T extends Record<string, { type: "string" | "boolean" }>>(usage: string, options: T) {
  const args = process.argv.slice(2).filter((arg) => arg !== "--");
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options, allowPositionals: true });
  } catch (error) {
    throw new OpsRefusal(`${(error as Error).message}\n${usage}`);
  }
}

export type DataDirState =
  { kind: "server"; pid: number } | { kind: "open elsewhere" } | { kind: "stopped" } | { kind: "no database" };

/**
 * Who has DATA_DIR's embedded database: a server answering on its control socket; some other process (PGlite keeps
 * pgdata/postmaster.pid while open: a server starting or stopping, `npm run seed`, or one killed without closing);
 * nobody; or there is no database at all.
 */
export async function dataDirState(dataDir: string): Promise<DataDirState> {
  const status = await askControlSocket(dataDir, "GET", "/status");
  if (status) return { kind: "server", pid: Number(status.body.pid) };
  const pgdata = path.join(dataDir, "pgdata");
  if (existsSync(path.join(pgdata, "postmaster.pid"))) return { kind: "open elsewhere" };
  return existsSync(path.join(pgdata, "PG_VERSION")) ? { kind: "stopped" } : { kind: "no database" };
}

export function openElsewhereMessage(dataDir: string) {
  return (
    `The embedded database in ${path.join(dataDir, "pgdata")} is open in another process (pgdata/postmaster.pid ` +
    "exists) and no server answers on DATA_DIR/control.sock: a server starting or stopping, `npm run seed`, or a " +
    "process killed without closing it. Opening it from here could corrupt it. Wait for the server to be up (then " +
    "this command asks it), or stop that process. If none runs, start the server once and stop it with Ctrl+C " +
    "(PGlite then closes the database cleanly) and try again."
  );
}

/**
 * For a command that writes to the database itself (create-owner, seed, import:legacy): refused while a server or
 * another process has DATA_DIR's embedded database open. PostgreSQL takes any number of clients: no check.
 */
export async function refuseLiveEmbeddedDatabase(config: { databaseUrl?: string; dataDir: string }, command: string) {
  if (config.databaseUrl) return;
  const state = await dataDirState(config.dataDir);
  if (state.kind === "server") {
    throw new OpsRefusal(
      `A server (pid ${state.pid}) has the embedded database in ${config.dataDir} open: stop it, run ${command}, ` +
        "start it again.",
    );
  }
  if (state.kind === "open elsewhere") throw new OpsRefusal(openElsewhereMessage(config.dataDir));
}

/** Runs a command's main: refusals print their message alone and exit 1. */
export function runTool(main: () => Promise<number>) {
  main()
    // Explicitly: PGlite's shutdown resets process.exitCode.
    .then((code) => process.exit(code))
    .catch((error: unknown) => {
      console.error(error instanceof OpsRefusal ? error.message : error);
      process.exit(1);
    });
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
