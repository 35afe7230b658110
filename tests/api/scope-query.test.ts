/**
 * The web app's scope query (app/models/scope.server.ts) against the API's own scope (api/auth/scope.ts): for every
 * demo account, listing with the query the web app sends answers 200 with exactly the rows the API's default scope
 * gives that token. A drift between the two would show as a 404 or as missing/foreign rows on the user's pages.
 */
import { describe, expect, test } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { scopeQuery } from "../../app/models/scope.server.ts";
import { useTestApi } from "../support/api.ts";

const t = useTestApi();

// Every account the web app keeps a session for (the ASG is refused on the web: isBlockedOnWeb).
const ACCOUNTS = ["principal", "admin", "coordenador", "auditor", "cliente", "semnivel", "outra"];

describe("the web app's scope query", () => {
  test.each(ACCOUNTS)("%s@demo.com.br: same rows as the API's own scope", async (name) => {
    const session = await t.post("/api/sessions", { email: `${name}@demo.com.br`, password: DEMO_PASSWORD });
    expect(session.status).toBe(200);
    const { token, user, empresaPrincipal } = session.body;
    const query = scopeQuery({ user: { ...user, avatarUrl: null }, empresaPrincipal });
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));

    const scoped = await t.get(`/api/setor?${search}`, { token });
    const unscoped = await t.get("/api/setor", { token });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);
    expect(unscoped.status).toBe(200);
    const ids = (answer: { body: { id: number }[] }) => answer.body.map((item) => item.id).sort((a, b) => a - b);
    expect(ids(scoped)).toEqual(ids(unscoped));
    expect(ids(scoped).length).toBeGreaterThan(0);
  });
});
