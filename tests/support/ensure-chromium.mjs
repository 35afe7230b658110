#!/usr/bin/env node
/**
 * The browser tests run in Debian's Chromium (Playwright cannot download its own browser on these machines). This
 * makes sure it is there before Playwright starts; `npm test` (tests/run.mjs) and `.ci/run` both use it.
 *
 * - The executable checked is CHROMIUM_PATH, else /usr/bin/chromium: the same path playwright.config.ts launches.
 * - Missing, as root with apt-get on the PATH: installs Debian's `chromium` package (DEBIAN_FRONTEND=noninteractive,
 *   waiting up to 10 minutes for another apt run's lock), printing each command, then checks the path again.
 * - Missing otherwise (not root, or no apt-get): prints ONE line with the command to run and answers not ok; the
 *   caller counts the browser suite as failed.
 *
 * To try the branches without removing the browser: `CHROMIUM_PATH=/nowhere/chromium node
 * tests/support/ensure-chromium.mjs` (as root: runs apt-get, then reports that the path is still missing), and
 * with a PATH that has no apt-get: `CHROMIUM_PATH=/nowhere/chromium PATH=/nowhere "$(command -v node)"
 * tests/support/ensure-chromium.mjs` (prints the one line, exits 1).
 *
 * As a command it exits 0 when Chromium is there (or was installed), 1 otherwise.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";
const APT_OPTIONS = ["-o", "DPkg::Lock::Timeout=600"];
const UPDATE_ARGS = [...APT_OPTIONS, "update", "-qq"];
const INSTALL_ARGS = [...APT_OPTIONS, "install", "-y", "-qq", "--no-install-recommends", "chromium"];

/** The executable the browser tests launch: CHROMIUM_PATH or Debian's /usr/bin/chromium. */
export function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

function isExecutableFile(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first apt-get on the PATH, or null. */
function findAptGet(env) {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, "apt-get");
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** The commands a person runs by hand (with sudo when not root), as one shell line. */
export function installCommandLine({ sudo = false } = {}) {
  const prefix = sudo ? "sudo " : "";
  return (
    `${prefix}apt-get ${UPDATE_ARGS.join(" ")} && ` +
    `${prefix}env DEBIAN_FRONTEND=noninteractive apt-get ${INSTALL_ARGS.join(" ")}`
  );
}

/**
 * Checks for Chromium and installs it when it can. Answers { ok, path, installed, message }: message is the one
 * line to show when not ok.
 */
export function ensureChromium({ env = process.env, log = console.log } = {}) {
  const executable = chromiumPath(env);
  if (isExecutableFile(executable)) return { ok: true, path: executable, installed: false };

  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const aptGet = findAptGet(env);
  if (!aptGet) {
    return {
      ok: false,
      path: executable,
      installed: false,
      message:
        `Chromium is missing at ${executable} and there is no apt-get here: install Chromium and run ` +
        `CHROMIUM_PATH=/path/to/chromium npm test (browser tests not run).`,
    };
  }
  if (!isRoot) {
    return {
      ok: false,
      path: executable,
      installed: false,
      message: `Chromium is missing at ${executable}: run \`${installCommandLine({ sudo: true })}\` then npm test again (browser tests not run).`,
    };
  }

  log(`Chromium is missing at ${executable}: installing Debian's chromium package.`);
  const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [UPDATE_ARGS, INSTALL_ARGS]) {
    log(`$ DEBIAN_FRONTEND=noninteractive ${aptGet} ${args.join(" ")}`);
    const result = spawnSync(aptGet, args, { stdio: "inherit", env: aptEnv });
    if (result.status !== 0) {
      const why = result.error ? result.error.message : `exit code ${result.status ?? result.signal}`;
      return {
        ok: false,
        path: executable,
        installed: false,
        message: `Installing Chromium failed (apt-get ${args.includes("update") ? "update" : "install"}: ${why}): run \`${installCommandLine()}\` by hand, then npm test again (browser tests not run).`,
      };
    }
  }
  if (!isExecutableFile(executable)) {
    return {
      ok: false,
      path: executable,
      installed: true,
      message:
        `Installed Debian's chromium, but ${executable} is still missing: ` +
        `${env.CHROMIUM_PATH ? "unset CHROMIUM_PATH or point it at a Chromium executable" : "check the chromium package"} (browser tests not run).`,
    };
  }
  log(`Chromium installed: ${executable}`);
  return { ok: true, path: executable, installed: true };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = ensureChromium();
  if (result.ok) {
    if (!result.installed) console.log(`Chromium: ${result.path}`);
  } else {
    console.error(result.message);
  }
  process.exit(result.ok ? 0 : 1);
}
