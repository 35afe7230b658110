/**
 * `npm run restore -- FILE [--data-dir DIR]`: a backup archive (npm run backup) into a DATA_DIR that holds no
 * database and no running server (restore.ts, docs/backups.md). Prints the rows per table beside the manifest's and
 * exits 1 when they differ (the database is then not put in place).
 */
import path from "node:path";

import { loadToolConfig, OpsRefusal, parseToolArgs, runTool, seconds } from "./ops-support.ts";
import { restoreBackup } from "./restore.ts";
import { formatComparison } from "./table-counts.ts";

const USAGE = "Usage: npm run restore -- FILE.tar.gz [--data-dir DIR]   (DIR: DATA_DIR by default)";

runTool(async () => {
  const { values, positionals } = parseToolArgs(USAGE, { "data-dir": { type: "string" } });
  if (positionals.length !== 1) throw new OpsRefusal(USAGE);
  const config = loadToolConfig();
  const dataDir = path.resolve(values["data-dir"] ?? config.dataDir);
  const result = await restoreBackup({ file: path.resolve(positionals[0]!), dataDir });

  const { manifest } = result;
  console.log(
    `Archive of ${manifest.createdAt} (${manifest.app.name} ${manifest.app.version}, ` +
      `${manifest.database.kind} ${manifest.database.serverVersion}).`,
  );
  console.log(formatComparison(result.comparison, ["backup", "restored"]));
  if (!result.restored) {
    console.error(`\nThe restored rows differ from the backup's manifest: nothing was written to ${dataDir}.`);
    return 1;
  }
  console.log(
    `\nAll ${result.comparison.length} tables match. Restored into DATA_DIR=${dataDir} in ${seconds(result.ms)}:`,
  );
  console.log("  pgdata/ (the database)");
  if (result.uploads === "restored") console.log("  uploads/");
  if (manifest.uploads === "bucket") {
    console.log("  The uploads were in a STORAGE_URL bucket when this backup was made: restore that bucket too.");
  }
  if (result.uploads === "restored" && config.storage.kind === "s3") {
    console.log("  STORAGE_URL is set: copy uploads/ into the bucket (docs/storage.md 'Moving existing uploads').");
  }
  console.log(
    result.sessionSecret
      ? "  session-secret (sessions signed before the backup stay valid)"
      : "  no session secret in the archive: the server uses SESSION_SECRET, or makes a new one (users sign in again)",
  );
  if (result.unknownMigrations.length) {
    console.log(
      `  Warning: made by a newer version (migrations ${result.unknownMigrations.join(", ")} are unknown here): ` +
        "start it with that version or newer.",
    );
  }
  console.log(`Start it with: DATA_DIR=${dataDir} npm run serve (or npm start, which builds first)`);
  return 0;
});
