/**
 * `npm run move-to-postgres -- --database-url postgres://...` (or DATABASE_URL): DATA_DIR's embedded database into an
 * empty PostgreSQL database (move-to-postgres.ts, docs/moving-to-postgresql.md), then the rows per table on both sides.
 */
import { moveToPostgres } from "./move-to-postgres.ts";
import { loadToolConfig, OpsRefusal, parseToolArgs, runTool, seconds } from "./ops-support.ts";
import { formatComparison } from "./table-counts.ts";

const USAGE = "Usage: npm run move-to-postgres -- --database-url postgres://USER@HOST:5432/DATABASE (or DATABASE_URL)";

runTool(async () => {
  const { values } = parseToolArgs(USAGE, { "database-url": { type: "string" } });
  const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;
  if (!databaseUrl || !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new OpsRefusal(USAGE);
  // DATA_DIR and the storage of the configuration; DATABASE_URL there is the target, not a source.
  const config = loadToolConfig({ ...process.env, DATABASE_URL: "" });
  const result = await moveToPostgres({ dataDir: config.dataDir, databaseUrl });

  console.log(formatComparison(result.comparison, ["embedded", "postgresql"]));
  if (!result.moved) {
    console.error("\nThe row counts differ: the transaction was rolled back, the target database is empty again.");
    return 1;
  }
  console.log(`\nAll ${result.comparison.length} tables match; moved in ${seconds(result.ms)}.`);
  if (result.sequencesFixed.length) console.log(`Sequences set forward: ${result.sequencesFixed.join(", ")}.`);
  if (result.serverPid !== null) {
    console.log(
      `The dump was made by the running server (pid ${result.serverPid}), which still serves the embedded database:` +
        "\nwhat it writes from now on is not in PostgreSQL. Stop it before starting on PostgreSQL.",
    );
  }
  console.log("\nNext: start the server on PostgreSQL (its migrations find everything applied):");
  console.log(
    `  DATABASE_URL='${databaseUrl.replace(/(\/\/[^:@/]*):[^@/]*@/, "$1:***@")}' npm run serve (or npm start, which builds first)`,
  );
  if (config.storage.kind === "disk") {
    console.log(
      `Uploads stay in ${config.storage.root}: keep DATA_DIR (also its session-secret) for that server, or copy them ` +
        "to a bucket and set STORAGE_URL (docs/storage.md 'Moving existing uploads').",
    );
  }
  return 0;
});
