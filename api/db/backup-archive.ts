/**
 * The backup archive (docs/backups.md): one `limpeza-backup-YYYY-MM-DD-HHmmss.tar.gz` (UTC) holding
 * - `database.sql`: a plain SQL dump of the embedded database (embedded-dump.ts);
 * - `uploads/`: DATA_DIR/uploads, when uploads are on disk (a STORAGE_URL bucket is backed up by its own means);
 * - `session-secret`: DATA_DIR/session-secret, when there is one;
 * - `manifest.json`: when, which app version, the rows per table and the migrations applied.
 */
import { existsSync, readFileSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

import * as tar from "tar";

import type { Database } from "./connection.ts";
import { dumpEmbeddedDatabase } from "./embedded-dump.ts";
import type { TableCounts } from "./table-counts.ts";

export const ARCHIVE_DATABASE = "database.sql";
export const ARCHIVE_MANIFEST = "manifest.json";
export const ARCHIVE_SESSION_SECRET = "session-secret";
export const ARCHIVE_UPLOADS = "uploads";

/**
 * included: DATA_DIR/uploads is in the archive; none: there was no such folder; bucket: STORAGE_URL's, not here;
 * left out: not asked for (move-to-postgres needs the database only).
 */
export type UploadsInArchive = "included" | "none" | "bucket" | "left out";

export type BackupManifest = {
  format: 1;
  createdAt: string;
  app: { name: string; version: string };
  database: { kind: "pglite"; serverVersion: string };
  tables: TableCounts;
  migrations: string[];
  uploads: UploadsInArchive;
  sessionSecret: boolean;
};

export type BackupOptions = {
  database: Database;
  dataDir: string;
  /** DATA_DIR/uploads when uploads are on disk; null when they are in a bucket (STORAGE_URL). */
  uploadsDir: string | null;
  /** Where the archive goes (created when missing). */
  outDir: string;
  /** false: the database only (move-to-postgres needs no photos). */
  withUploads?: boolean;
};

export type BackupResult = {
  file: string;
  bytes: number;
  ms: number;
  /** How long the process's other queries (and its event loop) waited for the dump. */
  blockedMs: number;
  uploads: UploadsInArchive;
  uploadFiles: number;
  sessionSecret: boolean;
  tables: TableCounts;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export const defaultBackupDir = (dataDir: string) => path.join(dataDir, "backups");

/**
 * Dumps the database first, then archives the uploads: photos are written before the rows that name them, so every
 * photo the dump names is on disk by then (files uploaded after the dump come along too, unnamed and harmless).
 */
export async function writeBackup(options: BackupOptions): Promise<BackupResult> {
  const began = performance.now();
  const createdAt = new Date();
  // The archive holds the session secret and personal data: only this OS user may read it. Made before the dump, so
  // an --out that cannot be written fails without holding the database.
  await mkdir(options.outDir, { recursive: true, mode: 0o700 });
  const dump = await dumpEmbeddedDatabase(options.database);
  const staging = await mkdtemp(path.join(options.outDir, ".limpeza-backup-"));
  const file = freeName(options.outDir, createdAt);
  const partial = `${file}.partial`;
  try {
    const entries = [ARCHIVE_MANIFEST, ARCHIVE_DATABASE];
    await writeFile(path.join(staging, ARCHIVE_DATABASE), dump.script);
    const secret = path.join(options.dataDir, "session-secret");
    const sessionSecret = existsSync(secret);
    if (sessionSecret) {
      await copyFile(secret, path.join(staging, ARCHIVE_SESSION_SECRET));
      entries.push(ARCHIVE_SESSION_SECRET);
    }
    let uploads: UploadsInArchive = "bucket";
    if (options.withUploads === false) uploads = "left out";
    else if (options.uploadsDir) uploads = (await isDirectory(options.uploadsDir)) ? "included" : "none";
    if (uploads === "included") {
      // Archived in place through a link (tar follows it), not copied first: uploads may be large.
      await symlink(path.resolve(options.uploadsDir!), path.join(staging, ARCHIVE_UPLOADS), "dir");
      entries.push(ARCHIVE_UPLOADS);
    }
    const manifest: BackupManifest = {
      format: 1,
      createdAt: createdAt.toISOString(),
      app: appVersion(),
      database: { kind: "pglite", serverVersion: dump.serverVersion },
      tables: dump.tables,
      migrations: dump.migrations,
      uploads,
      sessionSecret,
    };
    await writeFile(path.join(staging, ARCHIVE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);

    let uploadFiles = 0;
    await writeFile(partial, "", { mode: 0o600 });
    await tar.create(
      {
        gzip: true,
        file: partial,
        cwd: staging,
        follow: true,
        portable: true,
        filter: (name, entry) => {
          if (name.startsWith(`${ARCHIVE_UPLOADS}/`) && "isFile" in entry && entry.isFile()) uploadFiles++;
          return true;
        },
      },
      entries,
    );
    await chmod(partial, 0o600);
    await rename(partial, file);
    return {
      file,
      bytes: (await stat(file)).size,
      ms: performance.now() - began,
      blockedMs: dump.blockedMs,
      uploads,
      uploadFiles,
      sessionSecret,
      tables: dump.tables,
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** `limpeza-backup-2026-03-18-130501.tar.gz` (UTC); `-2`, `-3`... when one of that second exists. */
function freeName(dir: string, at: Date) {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace("T", "-")
    .replace(/:/g, "");
  for (let n = 1; ; n++) {
    const file = path.join(dir, `limpeza-backup-${stamp}${n > 1 ? `-${n}` : ""}.tar.gz`);
    if (!existsSync(file) && !existsSync(`${file}.partial`)) return file;
  }
}

async function isDirectory(dir: string) {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}

function appVersion() {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { name: string; version: string };
  return { name: pkg.name, version: pkg.version };
}

export class BackupArchiveError extends Error {}

/** Extracts an archive into `into` (an empty directory) and reads its manifest and SQL script. */
export async function extractBackup(file: string, into: string) {
  await mkdir(into, { recursive: true });
  try {
    await tar.extract({ file, cwd: into, strict: true });
  } catch (error) {
    throw new BackupArchiveError(`${file} is not a readable backup archive: ${(error as Error).message}`);
  }
  const manifestFile = path.join(into, ARCHIVE_MANIFEST);
  const databaseFile = path.join(into, ARCHIVE_DATABASE);
  if (!existsSync(manifestFile) || !existsSync(databaseFile)) {
    throw new BackupArchiveError(
      `${file} has no ${ARCHIVE_MANIFEST} or no ${ARCHIVE_DATABASE}: not a backup of this app`,
    );
  }
  const manifest = JSON.parse(await readFile(manifestFile, "utf8")) as BackupManifest;
  if (manifest.format !== 1 || typeof manifest.tables !== "object") {
    throw new BackupArchiveError(`${file}: unknown manifest format ${JSON.stringify(manifest.format)}`);
  }
  return {
    manifest,
    script: await readFile(databaseFile, "utf8"),
    uploadsDir: existsSync(path.join(into, ARCHIVE_UPLOADS)) ? path.join(into, ARCHIVE_UPLOADS) : null,
    sessionSecretFile: existsSync(path.join(into, ARCHIVE_SESSION_SECRET))
      ? path.join(into, ARCHIVE_SESSION_SECRET)
      : null,
  };
}
