import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Where uploaded files live. Local disk under DATA_DIR/uploads for now; an S3-compatible store can implement the
 * same three calls when several servers share uploads.
 */
export type Storage = {
  save(folder: string, extension: string, bytes: Uint8Array): Promise<string>;
  read(folder: string, name: string): Promise<Uint8Array | null>;
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
