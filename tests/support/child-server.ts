/**
 * server.ts as a child process (`node --import tsx server.ts`, as `npm run serve` starts it), for the tests of the
 * process itself (start-up, stop): on the embedded database (the caller's DATABASE_URL is dropped), stdout and stderr
 * kept together, the JSON log's lines parsed on demand.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export type ChildServer = {
  child: ChildProcess;
  /** All it printed so far. */
  output: () => string;
  /** Its JSON log lines so far. */
  lines: () => Record<string, unknown>[];
  /** Its exit code (-1 when a signal ended it). */
  exit: Promise<number>;
};

/** Starts server.ts with `settings` over the caller's environment (DATABASE_URL left out). */
export function spawnServer(settings: NodeJS.ProcessEnv): ChildServer {
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: { ...inherited, ...settings },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exit = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? -1)));
  const lines = () =>
    output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, output: () => output, lines, exit };
}
