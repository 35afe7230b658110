/**
 * Restores a backup archive (backup-archive.ts) into a DATA_DIR that holds no database yet: the embedded database
 * from database.sql, the uploads and the session secret. The database is built beside the target and moved into
 * place only when its row counts match the manifest's, so a failed restore leaves the target as it was.
 */
import { constants, existsSync } from "node:fs";
import { chmod, copyFile, cp, mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import path from "node:path";

import { extractBackup, type BackupManifest } from "./backup-archive.ts";
import { openDatabase } from "./connection.ts";
import { listMigrations } from "./migrate.ts";
import { dataDirState, OpsRefusal } from "./ops-support.ts";
import { compareCounts, countsMatch, countTables, runOn, type CountComparison } from "./table-counts.ts";

export type RestoreResult = {
  manifest: BackupManifest;
  comparison: CountComparison;
  /** false: the counts differ and nothing was written to DATA_DIR. */
  restored: boolean;
  uploads: "restored" | "none in the archive";
  sessionSecret: boolean;
  /** Migrations the archive has and this code does not know: it was made by a newer version. */
  unknownMigrations: string[];
  ms: number;
};

export async function restoreBackup(options: { file: string; dataDir: string }): Promise<RestoreResult> {
  const began = performance.now();
  const { file, dataDir } = options;
  if (!existsSync(file)) throw new OpsRefusal(`No such file: ${file}`);
  const state = await dataDirState(dataDir);
  if (state.kind === "server") {
    throw new OpsRefusal(
      `A server is running on DATA_DIR=${dataDir} (pid ${state.pid}): restore into another DATA_DIR.`,
    );
  }
  if (existsSync(path.join(dataDir, "pgdata"))) {
    throw new OpsRefusal(
      `DATA_DIR=${dataDir} already holds a database (pgdata/): restore into a new, empty DATA_DIR ` +
        "(npm run restore -- FILE --data-dir DIR), or move that one away first.",
    );
  }
  await mkdir(dataDir, { recursive: true });
  // Beside the target, on its file system: the finished pieces are renamed into place.
  const staging = await mkdtemp(path.join(dataDir, ".restore-"));
  try {
    const archive = await extractBackup(file, path.join(staging, "archive"));
    const database = await openDatabase({ dataDir: staging });
    let comparison: CountComparison;
    try {
      // One transaction: PGlite then writes its files once, not once per INSERT.
      await database.execScript(`begin;\n${archive.script}\ncommit;`);
      // PGlite gathers no statistics by itself (api/db/migrate.ts): the planner needs them for the restored rows.
      await database.execScript("analyze");
      const found = await countTables(runOn(database.db));
      comparison = compareCounts(archive.manifest.tables, found);
    } finally {
      await database.close();
    }
    const known = new Set(listMigrations().map((migration) => migration.name));
    const result = {
      manifest: archive.manifest,
      comparison,
      unknownMigrations: archive.manifest.migrations.filter((name) => !known.has(name)),
      sessionSecret: archive.sessionSecretFile !== null,
      uploads: archive.uploadsDir ? ("restored" as const) : ("none in the archive" as const),
    };
    if (!countsMatch(comparison)) return { ...result, restored: false, ms: performance.now() - began };

    await rename(path.join(staging, "pgdata"), path.join(dataDir, "pgdata"));
    if (archive.uploadsDir) {
      const uploads = path.join(dataDir, "uploads");
      // Upload names are never reused (api/services/storage.ts): files already there are kept, none overwritten.
      if (existsSync(uploads)) await cp(archive.uploadsDir, uploads, { recursive: true, force: false });
      else await rename(archive.uploadsDir, uploads);
    }
    if (archive.sessionSecretFile) {
      const secret = path.join(dataDir, "session-secret");
      // A secret already there is kept, as every other file: nothing is overwritten.
      const copied = await copyFile(archive.sessionSecretFile, secret, constants.COPYFILE_EXCL).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === "EEXIST") return false;
          throw error;
        },
      );
      if (copied) await chmod(secret, 0o600);
    }
    return { ...result, restored: true, ms: performance.now() - began };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
