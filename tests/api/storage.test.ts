/**
 * The storage contract (api/services/storage.ts) for both implementations, from one table: the disk under
 * DATA_DIR/uploads and an S3-compatible bucket (a local s3rver this file starts on a free port and stops). Then what
 * the bucket is for: two app instances sharing uploads.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { PutObjectCommand } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";

import { loadConfig } from "../../api/config.ts";
import { createStorage, createDiskStorage, type Storage } from "../../api/services/storage.ts";
import { createTestApi, type TestApi } from "../support/api.ts";
import { avatarForm, tinyPng } from "../support/files.ts";
import { startLocalS3, type LocalS3 } from "../support/s3.ts";

let s3: LocalS3;
const scratch: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), name));
  scratch.push(dir);
  return dir;
};

beforeAll(async () => {
  s3 = await startLocalS3(["contrato", "contrato-prefixo", "compartilhado", "via-config"]);
});
afterAll(async () => {
  await s3?.stop();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** One implementation under test, and a way around it to its underlying store (keys relative to the bucket or root). */
type Subject = {
  storage: Storage;
  /** Where files land: "" or a key prefix ending in "/". */
  prefix: string;
  /** Every stored key ("folder/name" after the prefix), sorted. */
  keys(): Promise<string[]>;
  /** Puts bytes at a key behind the storage's back. */
  plant(key: string, bytes: Uint8Array): Promise<void>;
};

function listDisk(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

function bucketSubject(bucket: string, prefix: string): Subject {
  const storage = s3.storage(bucket, prefix);
  return {
    storage,
    prefix,
    keys: () => s3.keys(bucket),
    async plant(key, bytes) {
      await storage.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
    },
  };
}

const IMPLEMENTATIONS: [string, () => Subject][] = [
  [
    "disk",
    () => {
      const root = tempDir("storage-disk-");
      return {
        storage: createDiskStorage(root),
        prefix: "",
        keys: async () => listDisk(root),
        async plant(key, bytes) {
          mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
          writeFileSync(path.join(root, key), bytes);
        },
      };
    },
  ],
  ["S3 bucket", () => bucketSubject("contrato", "")],
  ["S3 bucket under a key prefix", () => bucketSubject("contrato-prefixo", "instancia/uploads/")],
];

const bytesOf = (text: string) => new TextEncoder().encode(text);
const MB = 1024 * 1024;
async function* generate(chunks: Uint8Array[]) {
  for (const chunk of chunks) yield chunk;
}
const asArray = (bytes: Uint8Array | null) => (bytes ? new Uint8Array(bytes) : null);

/** Names save and write never make; read refuses them even where a file sits at that path. */
const UNSAFE_NAMES = [
  "../segredo.jpg",
  "sub/pasta.jpg",
  "sem-extensao",
  ".jpg",
  "foto.JPG",
  "foto.tar.gz",
  "foto.jpg ",
  "%2e%2e.jpg",
  "..",
  "",
];

describe.each(IMPLEMENTATIONS)("storage contract: %s", (_name, make) => {
  let subject: Subject;
  beforeAll(() => {
    subject = make();
  });

  test("save answers a new random name, keeps the file at folder/name and read gives its bytes back", async () => {
    const bytes = bytesOf("foto de execução");
    const name = await subject.storage.save("photos", "jpg", bytes);
    expect(name).toMatch(/^[0-9a-z]+-[0-9a-f]{16}\.jpg$/);
    expect(asArray(await subject.storage.read("photos", name))).toEqual(bytes);
    expect(await subject.keys()).toEqual([`${subject.prefix}photos/${name}`]);
  });

  test("two saves of the same bytes are two files", async () => {
    const bytes = bytesOf("mesma foto");
    const first = await subject.storage.save("avatars", "png", bytes);
    const second = await subject.storage.save("avatars", "png", bytes);
    expect(second).not.toBe(first);
    expect(asArray(await subject.storage.read("avatars", first))).toEqual(bytes);
    expect(asArray(await subject.storage.read("avatars", second))).toEqual(bytes);
  });

  test("write keeps the caller's name, and writing it again replaces the bytes", async () => {
    await subject.storage.write("avatar-thumbs", "abc-123-png.webp", bytesOf("primeira"));
    expect(asArray(await subject.storage.read("avatar-thumbs", "abc-123-png.webp"))).toEqual(bytesOf("primeira"));
    await subject.storage.write("avatar-thumbs", "abc-123-png.webp", bytesOf("segunda"));
    expect(asArray(await subject.storage.read("avatar-thumbs", "abc-123-png.webp"))).toEqual(bytesOf("segunda"));
    expect((await subject.keys()).filter((key) => key.includes("abc-123-png.webp"))).toEqual([
      `${subject.prefix}avatar-thumbs/abc-123-png.webp`,
    ]);
  });

  test("the same name in two folders is two files", async () => {
    await subject.storage.write("pasta-a", "nome_igual.png", bytesOf("a"));
    await subject.storage.write("pasta-b", "nome_igual.png", bytesOf("b"));
    expect(asArray(await subject.storage.read("pasta-a", "nome_igual.png"))).toEqual(bytesOf("a"));
    expect(asArray(await subject.storage.read("pasta-b", "nome_igual.png"))).toEqual(bytesOf("b"));
  });

  test("a missing file reads as null", async () => {
    expect(await subject.storage.read("avatars", "nao-existe.jpg")).toBeNull();
    expect(await subject.storage.read("pasta-que-nao-existe", "nao-existe.jpg")).toBeNull();
    expect(await subject.storage.readStream("avatars", "nao-existe.jpg")).toBeNull();
    expect(await subject.storage.readStream("pasta-que-nao-existe", "nao-existe.jpg")).toBeNull();
  });

  // Past the bucket's 5 MB part size, so the bucket's writes are a multipart upload of three parts.
  test("saveStream writes the chunks as they come into one file under a new name, byte for byte; readStream sends it with its size", async () => {
    const chunks = [randomBytes(5 * MB + 17), randomBytes(3), randomBytes(6 * MB)];
    const whole = Buffer.concat(chunks);
    const name = await subject.storage.saveStream("exports", "xlsx", generate(chunks));
    expect(name).toMatch(/^[0-9a-z]+-[0-9a-f]{16}\.xlsx$/);
    expect((await subject.keys()).filter((key) => key.includes("/exports/") || key.startsWith("exports/"))).toEqual([
      `${subject.prefix}exports/${name}`,
    ]);
    expect(Buffer.from((await subject.storage.read("exports", name))!).equals(whole)).toBe(true);
    const file = await subject.storage.readStream("exports", name);
    expect(file!.size).toBe(whole.byteLength);
    expect(Buffer.from(await new Response(file!.body).arrayBuffer()).equals(whole)).toBe(true);
  });

  test("saveStream of chunks that fail midway (past a part) throws that error and leaves no file, in no folder", async () => {
    const before = await subject.keys();
    const failing = async function* () {
      yield randomBytes(5 * MB + 1);
      yield randomBytes(MB);
      throw new Error("passou do limite");
    };
    await expect(subject.storage.saveStream("exports-falha", "pdf", failing())).rejects.toThrow("passou do limite");
    expect(await subject.keys()).toEqual(before);
    for await (const file of subject.storage.list("exports-falha")) expect.fail(`left ${file.name}`);
  });

  test.each(UNSAFE_NAMES)("the unsafe name %j is never read nor written", async (name) => {
    const planted = bytesOf("arquivo plantado");
    const plantable = name !== "" && name !== "..";
    if (plantable) await subject.plant(`${subject.prefix}avatars/${name}`, planted);
    const before = await subject.keys();

    expect(await subject.storage.read("avatars", name)).toBeNull();
    await expect(subject.storage.write("avatars", name, bytesOf("x"))).rejects.toThrow(`Unsafe file name: ${name}`);
    expect(await subject.keys()).toEqual(before);
    if (plantable) expect(before.length).toBeGreaterThan(0);
  });
});

describe("S3 bucket errors", () => {
  test("a bucket that is not there is an error, not a missing file", async () => {
    const storage = s3.storage("nao-existe");
    await expect(storage.read("avatars", "foto.jpg")).rejects.toMatchObject({ name: "NoSuchBucket" });
    await expect(storage.write("avatars", "foto.jpg", bytesOf("x"))).rejects.toMatchObject({ name: "NoSuchBucket" });
  });
});

describe("createStorage: the one place STORAGE_URL chooses", () => {
  // The SDK's default chain reads the keys from the standard variables, as on a server.
  beforeEach(() => {
    vi.stubEnv("AWS_ACCESS_KEY_ID", "S3RVER");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "S3RVER");
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("unset: the disk under DATA_DIR/uploads", async () => {
    const dataDir = tempDir("storage-config-");
    const storage = await createStorage(loadConfig({ DATA_DIR: dataDir } as unknown as NodeJS.ProcessEnv));
    const name = await storage.save("avatars", "png", bytesOf("no disco"));
    expect(readFileSync(path.join(dataDir, "uploads", "avatars", name), "utf8")).toBe("no disco");
  });

  test("s3://: the bucket, with the keys of the standard AWS variables", async () => {
    const config = loadConfig({
      DATA_DIR: tempDir("storage-config-"),
      STORAGE_URL: `s3://via-config/limpeza?endpoint=${s3.endpoint}`,
    } as unknown as NodeJS.ProcessEnv);
    const storage = await createStorage(config);
    const name = await storage.save("avatars", "png", bytesOf("no bucket"));
    expect(await s3.keys("via-config")).toEqual([`limpeza/avatars/${name}`]);
    expect(asArray(await s3.storage("via-config", "limpeza/").read("avatars", name))).toEqual(bytesOf("no bucket"));
  });

  test("a bucket that does not answer stops the start with a message naming STORAGE_URL", async () => {
    const config = loadConfig({
      DATA_DIR: tempDir("storage-config-"),
      STORAGE_URL: `s3://nao-existe?endpoint=${s3.endpoint}`,
    } as unknown as NodeJS.ProcessEnv);
    await expect(createStorage(config)).rejects.toThrow(
      "Storage unavailable:\n" +
        `  STORAGE_URL: the bucket "nao-existe" at ${s3.endpoint} did not answer: NotFound (HTTP 404). ` +
        "Check that it exists and that AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY may read and write it.",
    );
  });

  test("a STORAGE_URL endpoint where no server listens stops the start, saying why", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const config = loadConfig({
      DATA_DIR: tempDir("storage-config-"),
      STORAGE_URL: `s3://uploads?endpoint=http://127.0.0.1:${port}`,
    } as unknown as NodeJS.ProcessEnv);
    await expect(createStorage(config)).rejects.toThrow(
      `  STORAGE_URL: the bucket "uploads" at http://127.0.0.1:${port} did not answer: ` +
        `connect ECONNREFUSED 127.0.0.1:${port}. `,
    );
  });
});

describe("two app instances sharing one bucket", () => {
  let first: TestApi;
  let second: TestApi;
  beforeAll(async () => {
    // Each instance its own S3 client, as two processes behind a proxy would have.
    first = await createTestApi({ storage: s3.storage("compartilhado") });
    second = await createTestApi({ storage: s3.storage("compartilhado") });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  test("an avatar uploaded through one is served, with its thumbnail, by the other", async () => {
    const token = await first.signIn("principal@demo.com.br");
    const me = await first.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "principal@demo.com.br")
      .executeTakeFirstOrThrow();
    const png = tinyPng(4, 3, [0xd8, 0x1b, 0x60]);
    const upload = await first.call("PATCH", "/api/users/avatar", {
      token,
      form: avatarForm({ bytes: png, name: "perfil.png", type: "image/png" }, me.id),
    });
    expect(upload.status).toBe(200);
    const { avatar, avatar_url } = upload.body.user;
    expect(avatar_url).toBe(`/api/files/avatars/${avatar}`);
    expect(await s3.keys("compartilhado")).toEqual([`avatars/${avatar}`]);

    const file = await second.fetch("GET", `/api/files/avatars/${avatar}`);
    expect(file.status).toBe(200);
    // Stored re-encoded, as every upload (docs/photos.md 'Metadata'): a JPEG of the PNG's size.
    expect(file.headers.get("content-type")).toBe("image/jpeg");
    const meta = await sharp(new Uint8Array(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 4, 3]);

    const thumb = await second.fetch("GET", `/api/files/avatars/${avatar}/thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
    const thumbBytes = new Uint8Array(await thumb.arrayBuffer());
    expect(await sharp(thumbBytes).metadata()).toMatchObject({ format: "webp", width: 96, height: 96 });
    // Made once, by the second instance, into the bucket; the first serves that same file.
    const keys = await s3.keys("compartilhado");
    expect(keys).toHaveLength(2);
    const thumbKey = keys.find((key) => key !== `avatars/${avatar}`)!;
    expect(thumbKey).toMatch(/^avatar-thumbs\/[A-Za-z0-9_-]+\.webp$/);
    const again = await first.fetch("GET", `/api/files/avatars/${avatar}/thumb`);
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(thumbBytes);
    expect(await s3.keys("compartilhado")).toEqual(keys);
  });
});
