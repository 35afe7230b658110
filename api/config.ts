import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { z } from "zod";

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
};

export class ConfigError extends Error {}

/** Empty strings count as unset, the way shells and .env files usually mean them. */
function withoutEmpty(env: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join(".")}: ${issue.message} (got ${JSON.stringify(env[String(issue.path[0])])})`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  const production = values.NODE_ENV === "production";
  if (production && !values.SESSION_SECRET) {
    throw new ConfigError(
      "Invalid configuration:\n  SESSION_SECRET: required when NODE_ENV=production (at least 32 characters)",
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
  };
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
