import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where uploaded files live. Local disk under DATA_DIR/uploads for now; an S3-compatible store can implement the
 * same calls when several servers share uploads.
 */
export type Storage = {
  save(folder: string, extension: string, bytes: Uint8Array): Promise<string>;
  read(folder: string, name: string): Promise<Uint8Array | null>;
  /** Writes a file under a name of the caller's (a derived file, e.g. an avatar's thumbnail, named after it). */
  write(folder: string, name: string, bytes: Uint8Array): Promise<void>;
};

const SAFE_NAME = /^[a-zA-Z0-9_-]+\.[a-z0-9]+$/;

export function createDiskStorage(root: string): Storage {
  return {
    async save(folder, extension, bytes) {
      const name = `${Date.now().toString(36)}-${randomBytes(8).toString("hex")}.${extension}`;
      const dir = path.join(root, folder);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), bytes);
      return name;
    },
    async write(folder, name, bytes) {
      if (!SAFE_NAME.test(name)) throw new Error(`Unsafe file name: ${name}`);
      const dir = path.join(root, folder);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, name), bytes);
    },
    async read(folder, name) {
      if (!SAFE_NAME.test(name)) return null;
      try {
        return await readFile(path.join(root, folder, name));
      } catch {
        return null;
      }
    },
  };
}
