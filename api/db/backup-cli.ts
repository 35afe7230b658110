/**
 * `npm run backup [-- --out DIR]`: one archive of the embedded database, the uploads and the session secret
 * (backup-archive.ts, docs/backups.md) in DIR, by default DATA_DIR/backups. When a server runs on DATA_DIR it writes
 * the archive itself, asked over DATA_DIR/control.sock (a live PGlite directory must not be opened twice); when none
 * does, this process opens the directory. With DATABASE_URL it refuses and gives the pg_dump command.
 */
import { existsSync } from "node:fs";
import path from "node:path";

import type { Config } from "../config.ts";

import { defaultBackupDir, writeBackup, type BackupResult } from "./backup-archive.ts";
import { openDatabase } from "./connection.ts";
import { askControlSocket, type BackupAnswer } from "./control-socket.ts";
import {
  dataDirState,
  loadToolConfig,
  megabytes,
  openElsewhereMessage,
  OpsRefusal,
  parseToolArgs,
  runTool,
  seconds,
} from "./ops-support.ts";

const USAGE = "Usage: npm run backup [-- --out DIR]   (DIR: where the archive goes, DATA_DIR/backups by default)";

/**
 * What to run instead with DATABASE_URL (also in docs/backups.md 'With DATABASE_URL'). Each line runs as printed: in a
 * subshell with umask 077, so the dump and the archive are 0600 like the embedded backups (they hold personal data and
 * maybe the secret), and tar names only what exists: with SESSION_SECRET set there is no DATA_DIR/session-secret, and
 * naming it made tar fail.
 */
function postgresBackupMessage(config: Pick<Config, "dataDir" | "storage">, sessionSecretSet: boolean) {
  const lines = [
    "DATABASE_URL is set: the database is a PostgreSQL server, and pg_dump backs it up consistently while the",
    "servers run. Use a pg_dump of the server's major version or newer:",
    "",
    '  (umask 077 && pg_dump --format=custom --no-owner --no-privileges --file="limpeza-$(date -u +%Y-%m-%d-%H%M%S).dump" "$DATABASE_URL")',
    "",
    "and, to restore, into an empty database:",
    "",
    '  pg_restore --no-owner --no-privileges --exit-on-error --dbname="$DATABASE_URL" limpeza-YYYY-MM-DD-HHMMSS.dump',
    "",
  ];
  const secretFile = !sessionSecretSet && existsSync(path.join(config.dataDir, "session-secret"));
  const uploads = config.storage.kind === "disk" && existsSync(config.storage.root);
  const files = [uploads ? "uploads" : null, secretFile ? "session-secret" : null].filter(Boolean);
  if (files.length) {
    lines.push(
      `Keep ${files.length === 2 ? "the uploads and the session secret" : uploads ? "the uploads" : "the session secret"} too:`,
      "",
      `  (umask 077 && tar -czf "limpeza-files-$(date -u +%Y-%m-%d-%H%M%S).tar.gz" -C ${shellQuote(config.dataDir)} ${files.join(" ")})`,
      "",
    );
  }
  if (config.storage.kind === "disk" && !uploads) lines.push("Uploads: none yet (there is no DATA_DIR/uploads).");
  if (config.storage.kind === "s3") {
    lines.push("Uploads are in the STORAGE_URL bucket: back it up by its own means (versioning, replication, a sync).");
  }
  if (sessionSecretSet) lines.push("SESSION_SECRET is set: keep that secret in your secret store.");
  lines.push("See docs/backups.md.");
  return lines.join("\n");
}

const shellQuote = (text: string) => (/^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);

runTool(async () => {
  const { values } = parseToolArgs(USAGE, { out: { type: "string" } });
  const config = loadToolConfig();
  if (config.databaseUrl) throw new OpsRefusal(postgresBackupMessage(config, Boolean(process.env.SESSION_SECRET)));
  const out = path.resolve(values.out ?? defaultBackupDir(config.dataDir));

  const state = await dataDirState(config.dataDir);
  let result: BackupResult;
  let by: string;
  if (state.kind === "server") {
    const answer = await askControlSocket(config.dataDir, "POST", "/backup", { out });
    if (!answer) throw new OpsRefusal("The server stopped answering on DATA_DIR/control.sock: try again.");
    if (answer.status !== 200)
      throw new OpsRefusal(`The server could not write the backup: ${String(answer.body.error)}`);
    result = answer.body as BackupAnswer;
    by = `the running server (pid ${state.pid})`;
  } else if (state.kind === "stopped") {
    const database = await openDatabase({ dataDir: config.dataDir });
    try {
      result = await writeBackup({
        database,
        dataDir: config.dataDir,
        uploadsDir: config.storage.kind === "disk" ? config.storage.root : null,
        outDir: out,
      });
    } finally {
      await database.close();
    }
    by = "this command (no server was running)";
  } else if (state.kind === "open elsewhere") {
    throw new OpsRefusal(openElsewhereMessage(config.dataDir));
  } else {
    throw new OpsRefusal(`There is no embedded database in ${config.dataDir}/pgdata: nothing to back up (DATA_DIR?).`);
  }

  const tables = Object.values(result.tables);
  console.log(`Backup written: ${result.file}`);
  console.log(
    `  ${megabytes(result.bytes)}, ${tables.length} tables, ${tables.reduce((sum, n) => sum + n, 0)} rows, ` +
      `in ${seconds(result.ms)} by ${by}; the database was held for ${seconds(result.blockedMs)}.`,
  );
  if (result.uploads === "included") console.log(`  Uploads: ${result.uploadFiles} files from DATA_DIR/uploads.`);
  if (result.uploads === "none") console.log("  Uploads: none (there is no DATA_DIR/uploads yet).");
  if (result.uploads === "bucket") {
    console.log("  Uploads: NOT in this archive. They are in the STORAGE_URL bucket: back it up by its own means.");
  }
  console.log(
    result.sessionSecret
      ? "  It holds the session secret and personal data: keep it where only administrators can read it."
      : "  No DATA_DIR/session-secret (SESSION_SECRET is set): keep that secret in your secret store.",
  );
  return 0;
});
