/**
 * The report pages, their downloads and the booking calendars through the whole process (server.ts + the built web
 * app): a `filial` in the URL is 'Todos' (none, -1) or a branch the caller may read, else a 404 page, never the caller's own data under
 * another branch's link (docs/security.md 'Hardening, round three'). Needs `npm run build` first.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { businessToday } from "../../api/domain/schedule-expansion.ts";
import { startServer } from "../../server.ts";
import { demoIds } from "../support/demo.ts";
import { testServerConfig } from "../support/server-config.ts";

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;
let ids: Awaited<ReturnType<typeof demoIds>>;
const cookies = new Map<string, string>();

async function signIn(email: string) {
  const origin = server.url.replace("localhost", "127.0.0.1");
  const response = await fetch(`${origin}/?index`, {
    method: "POST",
    headers: { origin },
    body: new URLSearchParams({ email, password: DEMO_PASSWORD, redirectTo: "" }),
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "report-branch-web-"));
  server = await startServer(testServerConfig(dataDir));
  ids = await demoIds(server.database.db);
  cookies.set("admin", await signIn("admin@demo.com.br"));
  cookies.set("coordinator", await signIn("coordenador@demo.com.br"));
}, 180_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const today = businessToday();

function open(who: string, pathname: string, filial: number | string) {
  const url = new URL(pathname, server.url.replace("localhost", "127.0.0.1"));
  url.searchParams.set("inicio", today);
  url.searchParams.set("fim", today);
  url.searchParams.set("filial", String(filial));
  return fetch(url, { headers: { cookie: cookies.get(who)! }, redirect: "manual" });
}

describe("a company-wide user (admin of Hospital Boa Saúde)", () => {
  test("another tenant's branch in an export's link is 404 'Filial não encontrada', no spreadsheet", async () => {
    const answer = await open("admin", "/historico-colaboradores/exportar.xlsx", ids.recife);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).not.toContain("spreadsheet");
    expect(await answer.text()).toContain("Filial não encontrada");
  });

  test("another tenant's branch on a report page is the 404 page", async () => {
    const answer = await open("admin", "/historico-ambientes", ids.recife);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain("Filial não encontrada");
  });

  test("a filial that is no id at all is 404 too", async () => {
    expect((await open("admin", "/historico-ambientes/exportar.xlsx", "abc")).status).toBe(404);
  });

  test("an own branch, an own inactive branch and 'Todos' (-1) are read", async () => {
    const statuses = [];
    for (const filial of [ids.aldeota, ids.caucaia, -1, ""]) {
      statuses.push((await open("admin", "/historico-colaboradores/exportar.xlsx", filial)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
  });

  test("another tenant's branch on the booking calendars is the 404 page", async () => {
    for (const pathname of ["/historico-agenda", "/agendamentos"]) {
      const answer = await open("admin", pathname, ids.recife);
      expect(answer.status, pathname).toBe(404);
      expect(await answer.text(), pathname).toContain("Filial não encontrada");
    }
  });

  test("an own branch on the booking calendar is read and stays chosen", async () => {
    const answer = await open("admin", "/historico-agenda", ids.aldeota);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toMatch(new RegExp(`<option[^>]*value="${ids.aldeota}"[^>]*selected`));
  });
});

describe("a branch-level user (coordinator of Filial Aldeota)", () => {
  test("another branch of the company in an export's link is 404, no spreadsheet", async () => {
    const answer = await open("coordinator", "/historico-ambientes/exportar.xlsx", ids.messejana);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("content-type")).not.toContain("spreadsheet");
  });

  test("another branch of the company on the booking calendar is the 404 page", async () => {
    const answer = await open("coordinator", "/historico-agenda", ids.messejana);
    expect(answer.status).toBe(404);
    expect(await answer.text()).toContain("Filial não encontrada");
  });

  test("the own branch in the link is read", async () => {
    expect((await open("coordinator", "/historico-ambientes/exportar.xlsx", ids.aldeota)).status).toBe(200);
  });
});
