import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, opendir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import type { Config } from "../config.ts";

/**
 * Where uploaded files live: local disk under DATA_DIR/uploads by default, or an S3-compatible bucket when
 * STORAGE_URL is set (storage-s3.ts), so several servers behind a proxy share uploads. A file is `folder/name` in
 * both: the folder is the code's ("avatars", "photos"), the name is random (save) or derived from one (write).
 */
export type Storage = {
  save(folder: string, extension: string, bytes: Uint8Array): Promise<string>;
  /**
   * Saves a file written as its chunks come (an export of up to 200 MB is never held whole: docs/exports.md), under a
   * new random name. The file exists only once the last chunk is written: when `chunks` throws (a file over its
   * limit, a stopped job) nothing is left under any name, and the error is thrown on.
   */
  saveStream(folder: string, extension: string, chunks: AsyncIterable<Uint8Array>): Promise<string>;
  /** The file's bytes, or null when there is no such file or its name is not one save or write would use. */
  read(folder: string, name: string): Promise<Uint8Array | null>;
  /** The file as a stream with its size (a download sent as it is read), or null as `read` answers null. */
  readStream(folder: string, name: string): Promise<StoredStream | null>;
  /** Writes a file under a name of the caller's (a derived file, e.g. an avatar's thumbnail, named after it). */
  write(folder: string, name: string, bytes: Uint8Array): Promise<void>;
  /** Removes a file; a missing one is no error (an expired export, an orphan photo). */
  remove(folder: string, name: string): Promise<void>;
  /** The folder's files (SAFE_NAME names only) with their last change, in no order: for the orphan sweep. */
  list(folder: string): AsyncIterable<StoredFile>;
};

export type StoredFile = { name: string; modifiedAt: Date };
export type StoredStream = { body: ReadableStream<Uint8Array>; size: number };

/** The only names read or written: no path separators, no dots but the extension's. */
export const SAFE_NAME = /^[a-zA-Z0-9_-]+\.[a-z0-9]+$/;

/** A new random name (time first, so a folder lists in upload order); never reused, so files never go stale. */
export const newFileName = (extension: string) =>
  `${Date.now().toString(36)}-${randomBytes(8).toString("hex")}.${extension}`;

export function assertSafeName(name: string) {
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe file name: ${name}`);
}

/** The storage STORAGE_URL chose (api/config.ts). The S3 client is loaded only when a bucket is configured. */
export async function createStorage(config: Pick<Config, "storage">): Promise<Storage> {
  const setting = config.storage;
  if (setting.kind === "disk") return createDiskStorage(setting.root);
  const { createS3Storage, checkBucket } = await import("./storage-s3.ts");
  const storage = createS3Storage(setting);
  await checkBucket(storage);
  return storage;
}

export function createDiskStorage(root: string): Storage {
  /** A file written aside (a dot name: never listed nor read), then renamed: never seen half-written. */
  const writeAside = async (folder: string, name: string, write: (aside: string) => Promise<void>) => {
    const dir = path.join(root, folder);
    await mkdir(dir, { recursive: true });
    const aside = path.join(dir, `.${name}.${randomBytes(4).toString("hex")}.tmp`);
    try {
      await write(aside);
      await rename(aside, path.join(dir, name));
    } catch (error) {
      await rm(aside, { force: true });
      throw error;
    }
  };
  return {
    async save(folder, extension, bytes) {
      const name = newFileName(extension);
      const dir = path.join(root, folder);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), bytes);
      return name;
    },
    async saveStream(folder, extension, chunks) {
      const name = newFileName(extension);
      await writeAside(folder, name, (aside) => pipeline(Readable.from(chunks), createWriteStream(aside)));
      return name;
    },
    async write(folder, name, bytes) {
      assertSafeName(name);
      // A file rewritten in place (a photo stripped of its metadata) is never read half-written.
      await writeAside(folder, name, (aside) => writeFile(aside, bytes));
    },
    async remove(folder, name) {
      assertSafeName(name);
      await rm(path.join(root, folder, name), { force: true });
    },
    async *list(folder) {
      const dir = path.join(root, folder);
      let entries;
      try {
        entries = await opendir(dir);
      } catch {
        return;
      }
      for await (const entry of entries) {
        if (!entry.isFile() || !SAFE_NAME.test(entry.name)) continue;
        // A file removed meanwhile is simply not listed.
        const info = await stat(path.join(dir, entry.name)).catch(() => null);
        if (info) yield { name: entry.name, modifiedAt: info.mtime };
      }
    },
    async read(folder, name) {
      if (!SAFE_NAME.test(name)) return null;
      try {
        return await readFile(path.join(root, folder, name));
      } catch {
        return null;
      }
    },
    async readStream(folder, name) {
      if (!SAFE_NAME.test(name)) return null;
      const file = await open(path.join(root, folder, name)).catch(() => null);
      if (!file) return null;
      try {
        const { size } = await file.stat();
        // The stream closes the file when it ends, fails or is cancelled (a download the client left).
        return { body: Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>, size };
      } catch {
        await file.close();
        return null;
      }
    },
  };
}
