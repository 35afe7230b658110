import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { z } from "zod";

import type { S3Location } from "./services/storage-s3.ts";

/**
 * The process configuration, read once from the environment and validated.
 * A bad value stops the start-up with a message naming the variable.
 */
const booleanText = z
  .enum(["true", "false", "1", "0", "yes", "no"], {
    error: "use true or false",
  })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const url = (protocols: string[]) =>
  z
    .url({ error: `must be a URL (${protocols.join(", ")})` })
    .refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
      error: `must start with ${protocols.map((p) => `${p}:`).join(" or ")}`,
    });

/**
 * TRUST_PROXY: how many proxies of ours stand in front (each appends to X-Forwarded-For). `true` is one, as it meant
 * before hops were counted, and `false` none.
 */
const proxyHops = z
  .string()
  .regex(/^(true|false|yes|no|\d|10)$/, {
    error: "use false, true (one proxy) or the number of proxies of ours in front, from 0 to 10",
  })
  .transform((value) => {
    if (value === "true" || value === "yes") return 1;
    return value === "false" || value === "no" ? 0 : Number(value);
  });

/** A size such as '1mb', '512kb', '20MB' or plain bytes ('1048576'). */
const byteSize = z
  .string()
  .regex(/^\s*\d+(\.\d+)?\s*(b|kb|mb|gb)?\s*$/i, { error: "use a size such as 1mb, 512kb or 1048576 (bytes)" })
  .transform((value) => {
    const [, amount, unit = "b"] = value
      .trim()
      .toLowerCase()
      .match(/^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/)!;
    const factor = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[unit as "b" | "kb" | "mb" | "gb"];
    return Math.round(Number(amount) * factor);
  })
  .refine((bytes) => bytes >= 1024, { error: "must be at least 1kb" });

/**
 * STORAGE_URL: `s3://bucket[/prefix/]?endpoint=http://127.0.0.1:9000&region=us-east-1&forcePathStyle=true`, uploads in
 * an S3-compatible bucket (docs/storage.md). Keys never travel in it, where error messages, `ps` and shell histories
 * would show them: the AWS SDK reads AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or a profile or role) itself.
 */
const STORAGE_PARAMETERS = ["endpoint", "region", "forcePathStyle"];
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const KEY_PREFIX = /^([A-Za-z0-9_-][A-Za-z0-9_.-]*\/)*$/;

const storageUrl = z.string().transform((value, ctx) => {
  const fail = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail("must be a URL such as s3://bucket?endpoint=http://127.0.0.1:9000");
  }
  if (url.protocol !== "s3:") return fail("must start with s3:");
  if (url.username || url.password) {
    return fail("must not hold keys: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead");
  }
  if (!BUCKET_NAME.test(url.hostname) || url.port) {
    return fail("must name a bucket after s3:// (3 to 63 lower-case letters, digits, dots and hyphens)");
  }
  const prefix = url.pathname.replace(/^\/+/, "").replace(/([^/])$/, "$1/");
  if (!KEY_PREFIX.test(prefix)) {
    return fail("the key prefix after the bucket takes letters, digits, '_', '-' and '.' between single slashes");
  }
  if (url.hash) return fail("must not have a #fragment");
  const parameters = new Map<string, string>();
  for (const [name, parameter] of url.searchParams) {
    if (!STORAGE_PARAMETERS.includes(name)) {
      return fail(`unknown parameter "${name}" (use ${STORAGE_PARAMETERS.join(", ")})`);
    }
    if (parameters.has(name)) return fail(`parameter "${name}" given twice`);
    parameters.set(name, parameter);
  }
  const endpoint = parameters.get("endpoint");
  if (endpoint !== undefined && !z.url({ protocol: /^https?$/ }).safeParse(endpoint).success) {
    return fail("endpoint must be an http:// or https:// URL");
  }
  const region = parameters.get("region");
  if (region !== undefined && !/^[a-z0-9-]+$/.test(region))
    return fail("region takes lower-case letters, digits and -");
  const pathStyle = parameters.get("forcePathStyle");
  const forcePathStyle = booleanText.safeParse(pathStyle ?? (endpoint ? "true" : "false"));
  if (!forcePathStyle.success) return fail("forcePathStyle must be true or false");
  return {
    bucket: url.hostname,
    prefix,
    endpoint: endpoint?.replace(/\/+$/, ""),
    region,
    forcePathStyle: forcePathStyle.data,
  };
});

/**
 * What a refused value is shown as: any URL's user:password and a STORAGE_URL's unknown parameters' values are masked,
 * and the two secrets (METRICS_TOKEN, SESSION_SECRET) are shown only by their length.
 */
function shownValue(name: string, value: string | undefined) {
  if ((name === "METRICS_TOKEN" || name === "SESSION_SECRET") && value !== undefined) {
    return `${value.length} characters, not shown`;
  }
  if (value === undefined) return value;
  // user:password of any URL (DATABASE_URL, SMTP_URL, STORAGE_URL): start-up errors end up in logs.
  const withoutCredentials = value.replace(/\/\/[^/?#]*@/, "//***@");
  if (name !== "STORAGE_URL") return withoutCredentials;
  return withoutCredentials.replace(/([?&])([^=&#]*)=([^&#]*)/g, (all, separator: string, parameter: string) =>
    STORAGE_PARAMETERS.includes(parameter) ? all : `${separator}${parameter}=***`,
  );
}

/** A whole number within [min, max] (a count or a time in the given unit). */
const boundedInt = (min: number, max: number, unit: string) =>
  z.coerce
    .number({ error: `must be a number of ${unit}` })
    .int({ error: `must be a whole number of ${unit}` })
    .min(min, { error: `must be between ${min} and ${max} ${unit}` })
    .max(max, { error: `must be between ${min} and ${max} ${unit}` });

const environmentSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(0, { error: "must be between 0 and 65535" })
    .max(65535, { error: "must be between 0 and 65535" })
    .default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1, { error: "must not be empty" }).default("./data"),
  DATABASE_URL: url(["postgres", "postgresql"]).optional(),
  API_URL: url(["http", "https"]).optional(),
  SESSION_SECRET: z.string().min(32, { error: "must be at least 32 characters long" }).optional(),
  PUBLIC_URL: url(["http", "https"]).optional(),
  SMTP_URL: url(["smtp", "smtps"]).optional(),
  MAIL_FROM: z.string().min(3).default("Limpeza <nao-responda@localhost>"),
  DEMO_DATA: booleanText.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "silent"]).default("info"),
  BODY_LIMIT: byteSize.default(1024 * 1024),
  UPLOAD_LIMIT: byteSize.default(20 * 1024 * 1024),
  TRUST_PROXY: proxyHops.optional(),
  STORAGE_URL: storageUrl.optional(),
  METRICS_TOKEN: z
    .string()
    .min(32, { error: "must be at least 32 characters long" })
    .regex(/^[\x21-\x7e]+$/, { error: "use printable ASCII characters without spaces" })
    .optional(),
  SHUTDOWN_GRACE: z.coerce
    .number({ error: "must be a number of seconds" })
    .int({ error: "must be a whole number of seconds" })
    .min(1, { error: "must be between 1 and 600 seconds" })
    .max(600, { error: "must be between 1 and 600 seconds" })
    .default(10),
  EXPORT_WAIT_MS: boundedInt(0, 60_000, "milliseconds").default(8_000),
  EXPORT_CONCURRENCY: boundedInt(1, 16, "jobs").default(2),
  EXPORT_PER_COMPANY: boundedInt(1, 16, "jobs").default(1),
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be between 1 and 100" })
    .max(100, { error: "must be between 1 and 100" })
    .default(10),
  PGLITE_WORKER: booleanText.optional(),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  apiUrl?: string;
  sessionSecret: string;
  publicUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  demoData: boolean;
  logLevel: string;
  /** Largest body of an ordinary form or JSON request, in bytes (BODY_LIMIT). */
  bodyLimit: number;
  /** Largest multipart body (CSV files, images), in bytes (UPLOAD_LIMIT). */
  uploadLimit: number;
  /**
   * How many proxies of ours are in front (TRUST_PROXY), 0 for none: X-Forwarded-For is counted from the right by it,
   * and X-Forwarded-Host/-Proto are believed only when it is not 0 (api/lib/http-guards.ts).
   */
  trustProxy: number;
  /** Where uploads live (STORAGE_URL): the disk under DATA_DIR/uploads unless a bucket is set (api/services/storage.ts). */
  storage: StorageSetting;
  /** The bearer token /metrics asks for (METRICS_TOKEN); unset, /metrics is not served (api/lib/metrics.ts). */
  metricsToken?: string;
  /** Most connections of the PostgreSQL pool (DATABASE_POOL_SIZE); PGlite has one connection. */
  databasePoolSize: number;
  /** The embedded database in a worker thread (PGLITE_WORKER; docs/performance.md 'PGlite in a worker thread'). */
  pgliteWorker: boolean;
  /** Seconds a stop (SIGTERM, SIGINT) waits for running requests before it is forced (SHUTDOWN_GRACE). */
  shutdownGraceS: number;
  /** How long a download waits for its export job before the progress page (EXPORT_WAIT_MS; docs/exports.md). */
  exportWaitMs: number;
  /** Export jobs at once in this process (EXPORT_CONCURRENCY) and in one company across instances (EXPORT_PER_COMPANY). */
  exportLimits: { perProcess: number; perCompany: number };
};

export type StorageSetting = { kind: "disk"; root: string } | ({ kind: "s3" } & S3Location);

export class ConfigError extends Error {}

/** Empty strings count as unset, the way shells and .env files usually mean them. */
function withoutEmpty(env: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return `  ${issue.path.join(".")}: ${issue.message} (got ${JSON.stringify(shownValue(name, env[name]))})`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  const production = values.NODE_ENV === "production";
  if (production && !values.SESSION_SECRET) {
    throw new ConfigError(
      "Invalid configuration:\n  SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)",
    );
  }
  // Links that leave the server (e-mails, QR codes, files) must reach users wherever they are read: in production only
  // PUBLIC_URL knows that address (a request's Host can be forged, and the alerts' sweep has no request at all).
  if (production && !values.PUBLIC_URL) {
    throw new ConfigError(
      "Invalid configuration:\n  PUBLIC_URL: required when NODE_ENV=production, the address users open " +
        "(e.g. https://limpeza.example.com): e-mailed links, QR codes and files carry it",
    );
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    env: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    dataDir,
    databaseUrl: values.DATABASE_URL,
    apiUrl: values.API_URL?.replace(/\/+$/, ""),
    sessionSecret: values.SESSION_SECRET ?? localSessionSecret(dataDir),
    publicUrl: values.PUBLIC_URL?.replace(/\/+$/, ""),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    demoData: values.DEMO_DATA ?? !production,
    logLevel: values.LOG_LEVEL,
    bodyLimit: values.BODY_LIMIT,
    uploadLimit: values.UPLOAD_LIMIT,
    trustProxy: values.TRUST_PROXY ?? 0,
    storage: values.STORAGE_URL
      ? // AWS_REGION as the SDK reads it; us-east-1, what MinIO and most S3-compatible servers answer to, otherwise.
        { kind: "s3", ...values.STORAGE_URL, region: values.STORAGE_URL.region ?? (env.AWS_REGION || "us-east-1") }
      : { kind: "disk", root: path.join(dataDir, "uploads") },
    metricsToken: values.METRICS_TOKEN,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    pgliteWorker: values.PGLITE_WORKER ?? PGLITE_WORKER_DEFAULT,
    shutdownGraceS: values.SHUTDOWN_GRACE,
    exportWaitMs: values.EXPORT_WAIT_MS,
    exportLimits: { perProcess: values.EXPORT_CONCURRENCY, perCompany: values.EXPORT_PER_COMPANY },
  };
}

/**
 * The embedded database runs in a worker thread unless PGLITE_WORKER=false: under an export flood it cut /livez p99
 * from 18-23 s to about 1 s, for some 13 % on ordinary requests (docs/performance.md 'PGlite in a worker thread').
 */
export const PGLITE_WORKER_DEFAULT = true;

/** PGLITE_WORKER alone, for the openers that read no other setting (the API tests' databases). */
export function pgliteWorkerSetting(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.PGLITE_WORKER;
  return value ? booleanText.parse(value) : PGLITE_WORKER_DEFAULT;
}

/** Outside production a secret is generated once and kept in DATA_DIR so sessions survive restarts. */
function localSessionSecret(dataDir: string) {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
