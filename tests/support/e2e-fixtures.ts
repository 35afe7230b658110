/**
 * The browser tests' fixtures (STYLE.md 9): sign in through a fixture, create their own data, and fail on any
 * console.error the test did not announce. Import `test` and `expect` from here, not from @playwright/test.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";

import { test as base, expect, type Locator, type Page } from "@playwright/test";

import { DEMO_PASSWORD, E2E_CPFS, SHARED_ACCOUNTS, type SharedAccount } from "./e2e-data.ts";
import { signInOverHttp, storageState } from "./e2e-global-setup.ts";

export { expect };

export type NewUser = { nome: string; email: string; password: string; cpf: string; telefone: string };

type Fixtures = {
  consoleAllowList: RegExp[];
  /** Console errors matching one of these are expected by the test (e.g. a 400 answer it provokes). */
  allowConsoleErrors: (...patterns: RegExp[]) => void;
  consoleGuard: void;
  /** Puts the session of a shared demo account (signed in once by the global setup) into this browser context. */
  signInAs: (account: SharedAccount) => Promise<void>;
  /** Signs up a brand-new user through the API with a pre-registered CPF of the tests' pool. */
  createUser: (options?: { signIn?: boolean }) => Promise<NewUser>;
};

const runDir = () => {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error("E2E_RUN_DIR is not set: run the browser tests with `npx playwright test`");
  return dir;
};

export const test = base.extend<Fixtures>({
  consoleAllowList: async ({}, use) => {
    await use([]);
  },

  allowConsoleErrors: async ({ consoleAllowList }, use) => {
    await use((...patterns) => consoleAllowList.push(...patterns));
  },

  consoleGuard: [
    async ({ page, consoleAllowList }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = `${message.text()} (${message.location().url})`;
        if (isTracerNoise(message.text(), message.location().url)) return;
        if (!consoleAllowList.some((pattern) => pattern.test(text))) errors.push(text);
      });
      page.on("pageerror", (error) => errors.push(`Uncaught: ${error.message}`));
      await use();
      expect(errors, "unexpected console errors in the page").toEqual([]);
    },
    { auto: true },
  ],

  signInAs: async ({ context, baseURL }, use) => {
    await use(async (account) => {
      const file = path.join(runDir(), "auth", `${SHARED_ACCOUNTS[account]}.json`);
      const state = JSON.parse(readFileSync(file, "utf8")) as ReturnType<typeof storageState>;
      expect(new URL(baseURL!).hostname).toBe(state.cookies[0].domain);
      await context.addCookies(state.cookies);
    });
  },

  createUser: async ({ context, baseURL, request }, use, testInfo) => {
    await use(async ({ signIn = false } = {}) => {
      const cpf = claimCpf();
      const id = cpf.slice(-4);
      const user: NewUser = {
        nome: `Teste ${testInfo.project.name} ${id}`,
        email: `teste.${id}@e2e.com.br`,
        password: "senha-inicial-1",
        cpf,
        telefone: "85999990000",
      };
      const response = await request.post("/api/users", {
        data: { ...user, emailConfirmation: user.email, dataNascimento: "1990-04-12" },
      });
      expect(response.status(), await response.text()).toBe(201);
      if (signIn)
        await context.addCookies(
          storageState(baseURL!, await signInOverHttp(baseURL!, user.email, user.password)).cookies,
        );
      return user;
    });
  },
});

/**
 * Playwright's trace recorder (trace: retain-on-failure) fetches blob: images from inside the page to snapshot them,
 * and our CSP (connect-src 'self') blocks it. The page's own code never fetches blob: URLs; such a message with no
 * source location is the recorder's, not the app's.
 */
function isTracerNoise(text: string, url: string) {
  return (
    !url && /^Connecting to 'blob:.*violates the following Content Security Policy directive: "connect-src/s.test(text)
  );
}

/** Each pool CPF is used once per run: creating its claim directory is atomic across workers. */
function claimCpf() {
  for (const cpf of E2E_CPFS) {
    try {
      mkdirSync(path.join(runDir(), "claims", cpf));
      return cpf;
    } catch {
      // taken by another test
    }
  }
  throw new Error(`All ${E2E_CPFS.length} pre-registered test CPFs are used: raise E2E_CPF_POOL_SIZE`);
}

/** A toast (role alert for errors, status otherwise) showing this title. */
export function toast(page: Page, title: string, role: "alert" | "status" = "alert"): Locator {
  return page.getByRole(role).filter({ has: page.locator(".toast-title", { hasText: title }) });
}

export function drawer(page: Page) {
  return page.getByRole("navigation", { name: "Menu principal" });
}

/**
 * Clicks 'Abrir menu' or 'Fechar menu' and waits until the choice is saved: with JS the drawer moves at once and the
 * cookie is written by a background request, which a navigation right after the click would cancel.
 */
export async function toggleDrawer(page: Page, button: "Abrir menu" | "Fechar menu") {
  await Promise.all([
    page.waitForResponse(
      (response) => response.url().includes("/preferencias/menu") && response.request().method() === "POST",
    ),
    page.getByRole("button", { name: button }).click(),
  ]);
}

/** Fills the sign-in form and submits it. */
export async function submitSignIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

/** The newest password-reset link e-mailed to this address, read from the server's log of the outbox. */
export async function resetLinkFor(email: string) {
  const logFile = process.env.E2E_SERVER_LOG;
  if (!logFile) throw new Error("E2E_SERVER_LOG is not set");
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const lines = readFileSync(logFile, "utf8")
          .split("\n")
          .filter((line) => line.includes('"e-mail written to the outbox"'));
        const mails = lines
          .map((line) => JSON.parse(line) as { to: string; text: string })
          .filter((mail) => mail.to === email);
        link = mails.at(-1)?.text.match(/https?:\/\/\S+\/reset-password\?token=\S+/)?.[0];
        return link;
      },
      { message: `a reset e-mail to ${email} in ${logFile}` },
    )
    .toBeTruthy();
  return link!;
}

/** A real PNG (w x h, one colour), built here so the upload test needs no fixture file. */
export function makePng(width = 8, height = 8, rgb: [number, number, number] = [0, 105, 122]) {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Saves a screenshot under tests/.tmp/screens/<project>-<name>.png (not committed). */
export async function screenshot(page: Page, project: string, name: string) {
  const dir = path.join(import.meta.dirname, "..", ".tmp", "screens");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${project}-${name}.png`), fullPage: true });
}

/** A phone that scanned a room's QR code: 360 × 740, touch, no script, in Fortaleza (the public room page's tests). */
/** An address of its own for one visitor (the e2e server believes one proxy hop: TRUST_PROXY=1). */
export function visitorAddress() {
  const part = () => Math.floor(Math.random() * 250) + 1;
  return { "x-forwarded-for": `10.${part()}.${part()}.${part()}` };
}

/** A phone that scanned a room's QR code, as one visitor of its own (`visitorAddress`). */
export const scanningPhone = () => ({ ...SCANNING_PHONE, extraHTTPHeaders: visitorAddress() });

export const SCANNING_PHONE = {
  viewport: { width: 360, height: 740 },
  isMobile: true,
  javaScriptEnabled: false,
  locale: "pt-BR",
  timezoneId: "America/Fortaleza",
} as const;
