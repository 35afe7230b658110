/**
 * failLoad (app/lib/fail-load.server.ts), where every page's loader turns an API failure into its answer: a
 * refusal of the URL's input is a 4xx with the API's words, never a 500 ('Hardening, round three', item 4).
 */
import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, test } from "vitest";

import type { SignedInCaller } from "../../app/api.server.ts";
import { failLoad } from "../../app/lib/fail-load.server.ts";

const api = { request: new Request("http://x/setores"), context: {} as AppLoadContext } as SignedInCaller;

async function answerTo(status: number, message: string) {
  const thrown = (await failLoad(api, { ok: false, status, message }, "Erro ao carregar os setores").catch(
    (error: unknown) => error,
  )) as Response;
  return [thrown.status, await thrown.text()];
}

describe("failLoad", () => {
  test("an API 400 (a value of the URL it refused) is the page's 400 with the API's words", async () => {
    expect(await answerTo(400, "Dados inválidos")).toEqual([400, "Dados inválidos"]);
  });

  test("an API 403 is the page's 403", async () => {
    expect(await answerTo(403, "Permissão negada!")).toEqual([403, "Permissão negada!"]);
  });

  test("an API 404 says what was missing", async () => {
    expect(await answerTo(404, "Setor não encontrado")).toEqual([404, "Setor não encontrado"]);
  });

  test("a failure of the API itself is a 500 with the page's message, not the API's", async () => {
    expect(await answerTo(500, "Erro interno")).toEqual([500, "Erro ao carregar os setores"]);
  });
});
