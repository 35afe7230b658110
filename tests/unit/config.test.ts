import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, test } from "vitest";

import { ConfigError, loadConfig } from "../../api/config.ts";

const SECRET = "s".repeat(32);
const SITE = "https://limpeza.example.com";
let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "config-test-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** loadConfig over exactly these variables (never the process's own), with a throw-away DATA_DIR. */
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env } as unknown as NodeJS.ProcessEnv);

function failure(env: Record<string, string>) {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe("loadConfig", () => {
  test("defaults for development", () => {
    const config = load({});
    expect(config).toMatchObject({ env: "development", port: 3000, host: "0.0.0.0", demoData: true, logLevel: "info" });
    expect(config.dataDir).toBe(path.resolve(dataDir));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.apiUrl).toBeUndefined();
  });

  test("a bad PORT stops with a message naming PORT", () => {
    for (const port of ["abc", "70000", "-1", "80.5"]) {
      const message = failure({ PORT: port });
      expect(message, port).toMatch(/PORT/);
      expect(message, port).toContain(JSON.stringify(port));
    }
    expect(load({ PORT: "8080" }).port).toBe(8080);
    expect(load({ PORT: "0" }).port).toBe(0);
  });

  test("empty values count as unset", () => {
    expect(load({ PORT: "", DATABASE_URL: "" })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  test("SESSION_SECRET is required in production, and must be long enough", () => {
    expect(failure({ NODE_ENV: "production" })).toMatch(/SESSION_SECRET/);
    expect(failure({ NODE_ENV: "production", SESSION_SECRET: "curto" })).toMatch(/SESSION_SECRET/);
    // A secret is never echoed, even a refused one: start-up errors end up in logs.
    expect(failure({ DATABASE_URL: "postgress://app:s3cret@db/x" })).toContain("postgress://***@db/x");
    expect(failure({ SMTP_URL: "smtpx://user:s3cret@mail:587" })).not.toContain("s3cret");
    expect(failure({ NODE_ENV: "production", SESSION_SECRET: "curto" })).toContain('(got "5 characters, not shown")');
    expect(failure({ NODE_ENV: "production", SESSION_SECRET: "curto" })).not.toContain("curto");
    expect(load({ NODE_ENV: "production", SESSION_SECRET: SECRET, PUBLIC_URL: SITE }).sessionSecret).toBe(SECRET);
  });

  test("SHUTDOWN_GRACE: 10 seconds unless set, whole seconds from 1 to 600", () => {
    expect(load({}).shutdownGraceS).toBe(10);
    expect(load({ SHUTDOWN_GRACE: "2" }).shutdownGraceS).toBe(2);
    expect(failure({ SHUTDOWN_GRACE: "0" })).toMatch(/SHUTDOWN_GRACE: must be between 1 and 600 seconds/);
    expect(failure({ SHUTDOWN_GRACE: "1.5" })).toMatch(/SHUTDOWN_GRACE: must be a whole number of seconds/);
  });

  test("PUBLIC_URL is required in production", () => {
    expect(failure({ NODE_ENV: "production", SESSION_SECRET: SECRET })).toBe(
      "Invalid configuration:\n  PUBLIC_URL: required when NODE_ENV=production, the address users open " +
        "(e.g. https://limpeza.example.com): e-mailed links, QR codes and files carry it",
    );
  });

  test("PUBLIC_URL may stay unset outside production", () => {
    expect(load({ NODE_ENV: "development" }).publicUrl).toBeUndefined();
  });

  test("outside production a secret is made once and kept in DATA_DIR", () => {
    const first = load({}).sessionSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, "session-secret"), "utf8").trim()).toBe(first);
    expect(load({}).sessionSecret).toBe(first);
  });

  test("the production secret is not written to disk", () => {
    load({ NODE_ENV: "production", SESSION_SECRET: SECRET, PUBLIC_URL: SITE });
    expect(existsSync(path.join(dataDir, "session-secret"))).toBe(false);
  });

  test("DEMO_DATA is off by default in production, on elsewhere, and can be set either way", () => {
    expect(load({ NODE_ENV: "production", SESSION_SECRET: SECRET, PUBLIC_URL: SITE }).demoData).toBe(false);
    expect(load({ NODE_ENV: "production", SESSION_SECRET: SECRET, PUBLIC_URL: SITE, DEMO_DATA: "true" }).demoData).toBe(
      true,
    );
    expect(load({ NODE_ENV: "development" }).demoData).toBe(true);
    expect(load({ NODE_ENV: "test" }).demoData).toBe(true);
    expect(load({ DEMO_DATA: "false" }).demoData).toBe(false);
    expect(load({ DEMO_DATA: "0" }).demoData).toBe(false);
    expect(failure({ DEMO_DATA: "talvez" })).toMatch(/DEMO_DATA/);
  });

  test("URLs are checked by scheme and lose their trailing slash", () => {
    expect(failure({ DATABASE_URL: "mysql://localhost/db" })).toMatch(/DATABASE_URL/);
    expect(failure({ API_URL: "ftp://x" })).toMatch(/API_URL/);
    expect(failure({ SMTP_URL: "http://mail" })).toMatch(/SMTP_URL/);
    const config = load({
      DATABASE_URL: "postgres://u@localhost:5432/db",
      API_URL: "http://api.local/",
      PUBLIC_URL: "https://limpeza.example.com//",
    });
    expect(config).toMatchObject({
      databaseUrl: "postgres://u@localhost:5432/db",
      apiUrl: "http://api.local",
      publicUrl: "https://limpeza.example.com",
    });
  });

  test("TRUST_PROXY counts the proxies of ours in front: true is one, false none", () => {
    const hops = ["2", "1", "true", "yes", "0", "false", "no"].map((value) => load({ TRUST_PROXY: value }).trustProxy);
    expect(hops).toEqual([2, 1, 1, 1, 0, 0, 0]);
  });

  test.each(["talvez", "11", "-1"])("TRUST_PROXY=%s stops with a message saying what it takes", (value) => {
    expect(failure({ TRUST_PROXY: value })).toBe(
      "Invalid configuration:\n" +
        "  TRUST_PROXY: use false, true (one proxy) or the number of proxies of ours in front, from 0 to 10 " +
        `(got ${JSON.stringify(value)})`,
    );
  });

  test("STORAGE_URL unset: uploads on the disk under DATA_DIR/uploads", () => {
    expect(load({}).storage).toEqual({ kind: "disk", root: path.join(path.resolve(dataDir), "uploads") });
    expect(load({ STORAGE_URL: "" }).storage.kind).toBe("disk");
  });

  test("STORAGE_URL names a bucket, a key prefix and how to reach it", () => {
    expect(
      load({ STORAGE_URL: "s3://uploads?endpoint=http://127.0.0.1:9000/&region=sa-east-1&forcePathStyle=true" })
        .storage,
    ).toEqual({
      kind: "s3",
      bucket: "uploads",
      prefix: "",
      endpoint: "http://127.0.0.1:9000",
      region: "sa-east-1",
      forcePathStyle: true,
    });
    // AWS itself: virtual-hosted style, AWS_REGION as the SDK reads it.
    expect(load({ STORAGE_URL: "s3://limpeza.prod/instancia-a/uploads", AWS_REGION: "us-west-2" }).storage).toEqual({
      kind: "s3",
      bucket: "limpeza.prod",
      prefix: "instancia-a/uploads/",
      endpoint: undefined,
      region: "us-west-2",
      forcePathStyle: false,
    });
    // Another endpoint (MinIO...): path style unless told, us-east-1 unless told.
    expect(load({ STORAGE_URL: "s3://uploads/?endpoint=https://minio.local" }).storage).toMatchObject({
      prefix: "",
      region: "us-east-1",
      forcePathStyle: true,
    });
    expect(
      load({ STORAGE_URL: "s3://uploads?endpoint=https://r2.example.com&forcePathStyle=false" }).storage,
    ).toMatchObject({ forcePathStyle: false });
  });

  test.each([
    ["https://uploads.s3.amazonaws.com", "must start with s3:"],
    ["uploads", "must be a URL such as s3://bucket?endpoint=http://127.0.0.1:9000"],
    ["s3://", "must name a bucket after s3:// (3 to 63 lower-case letters, digits, dots and hyphens)"],
    ["s3://Uploads_2", "must name a bucket after s3:// (3 to 63 lower-case letters, digits, dots and hyphens)"],
    ["s3://uploads:9000", "must name a bucket after s3:// (3 to 63 lower-case letters, digits, dots and hyphens)"],
    [
      "s3://uploads/a//b",
      "the key prefix after the bucket takes letters, digits, '_', '-' and '.' between single slashes",
    ],
    [
      "s3://uploads/fotos%20antigas/",
      "the key prefix after the bucket takes letters, digits, '_', '-' and '.' between single slashes",
    ],
    ["s3://uploads#x", "must not have a #fragment"],
    ["s3://uploads?endpoint=127.0.0.1:9000", "endpoint must be an http:// or https:// URL"],
    ["s3://uploads?endpoint=ftp://minio.local", "endpoint must be an http:// or https:// URL"],
    ["s3://uploads?region=SA_EAST", "region takes lower-case letters, digits and -"],
    ["s3://uploads?forcePathStyle=talvez", "forcePathStyle must be true or false"],
    ["s3://uploads?region=us-east-1&region=sa-east-1", 'parameter "region" given twice'],
  ])("STORAGE_URL=%s stops with a message naming it", (value, message) => {
    expect(failure({ STORAGE_URL: value })).toBe(
      `Invalid configuration:\n  STORAGE_URL: ${message} (got ${JSON.stringify(value)})`,
    );
  });

  test("STORAGE_URL refuses keys, and its refusal does not repeat them", () => {
    expect(failure({ STORAGE_URL: "s3://AKIAEXEMPLO:segredo@uploads?endpoint=http://127.0.0.1:9000" })).toBe(
      "Invalid configuration:\n" +
        "  STORAGE_URL: must not hold keys: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead " +
        '(got "s3://***@uploads?endpoint=http://127.0.0.1:9000")',
    );
    // Unknown parameters are named, their values not shown (a key typed where it does not belong).
    expect(failure({ STORAGE_URL: "s3://uploads?regiao=sa-east-1" })).toBe(
      "Invalid configuration:\n" +
        '  STORAGE_URL: unknown parameter "regiao" (use endpoint, region, forcePathStyle) (got "s3://uploads?regiao=***")',
    );
    expect(failure({ STORAGE_URL: "s3://uploads?region=us-east-1&secretAccessKey=segredo" })).toBe(
      "Invalid configuration:\n" +
        '  STORAGE_URL: unknown parameter "secretAccessKey" (use endpoint, region, forcePathStyle) ' +
        '(got "s3://uploads?region=us-east-1&secretAccessKey=***")',
    );
  });

  test("NODE_ENV and LOG_LEVEL take only known values", () => {
    expect(failure({ NODE_ENV: "staging" })).toMatch(/NODE_ENV/);
    expect(failure({ LOG_LEVEL: "verbose" })).toMatch(/LOG_LEVEL/);
  });

  test("DATABASE_POOL_SIZE is a whole number from 1 to 100, 10 by default", () => {
    expect(load({}).databasePoolSize).toBe(10);
    expect(load({ DATABASE_POOL_SIZE: "1" }).databasePoolSize).toBe(1);
    expect(load({ DATABASE_POOL_SIZE: "100" }).databasePoolSize).toBe(100);
    for (const size of ["0", "101", "-5", "2.5", "dez"]) {
      const message = failure({ DATABASE_POOL_SIZE: size });
      expect(message, size).toMatch(/DATABASE_POOL_SIZE: must be (between 1 and 100|a whole number|a number)/);
      expect(message, size).toContain(JSON.stringify(size));
    }
  });

  test("METRICS_TOKEN: unset by default, at least 32 characters, and never repeated in a refusal", () => {
    expect(load({}).metricsToken).toBeUndefined();
    const token = "a1B2-c3D4_e5F6.g7H8~i9J0+k1L2/m3N4=";
    expect(load({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    const short = "curto-demais-1234567890";
    expect(failure({ METRICS_TOKEN: short })).toBe(
      `Invalid configuration:\n  METRICS_TOKEN: must be at least 32 characters long (got "23 characters, not shown")`,
    );
    const spaced = `${"x".repeat(20)} ${"y".repeat(20)}`;
    const message = failure({ METRICS_TOKEN: spaced });
    expect(message).toMatch(/METRICS_TOKEN: use printable ASCII characters without spaces/);
    expect(message).not.toContain("xxxx");
  });
});
