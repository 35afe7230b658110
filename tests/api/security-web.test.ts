/**
 * Issue 7 through the whole process (server.ts + the built web app), on its own embedded database:
 * item 3 (body limits on the web), 4 (open redirect after sign-in), 5 (sessions end on sign-out, password change
 * and inactivation; the cookie holds only the token), 9 (non-form bodies on web actions), 11 (X-Forwarded-Host),
 * 12 (menu cookie flags, development warning, CSP); issue 22 items 5 and 12 (behind a proxy of ours), 9 (a client
 * that leaves is logged as 499) and 10 (posts without Origin); issue 40 item 1 (a session opens only its own app's
 * pages). Needs `npm run build` first, as the e2e suite does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";

import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { INCIDENT_TEXTS, VISITOR_LIMITS } from "../../api/domain/incidents.ts";
import { forgetKnownBlocks } from "../../api/lib/rate-limit.ts";
import { qrContent, qrImage } from "../../app/lib/qr-codes.server.ts";
import { developmentWarning, startServer } from "../../server.ts";
import { testServerConfig } from "../support/server-config.ts";

let server: Awaited<ReturnType<typeof startServer>>;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "security-web-"));
  const config = testServerConfig(dataDir);
  server = await startServer(config);
}, 120_000);

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Jar = Map<string, string>;
const cookieHeader = (jar: Jar) => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
function keep(jar: Jar, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [name, ...rest] = pair.split("=");
    const value = rest.join("=");
    if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

function web(pathname: string, init: RequestInit & { jar?: Jar } = {}) {
  const headers = new Headers(init.headers);
  if (init.jar?.size) headers.set("cookie", cookieHeader(init.jar));
  if (init.method && init.method !== "GET" && !headers.has("origin"))
    headers.set("origin", server.url.replace("localhost", "127.0.0.1"));
  return fetch(new URL(pathname, server.url.replace("localhost", "127.0.0.1")), {
    ...init,
    headers,
    redirect: "manual",
  });
}

async function signIn(email: string, redirectTo = "", password = DEMO_PASSWORD) {
  const jar: Jar = new Map();
  const response = await web("/?index", {
    method: "POST",
    body: new URLSearchParams({ email, password, redirectTo }),
  });
  keep(jar, response);
  return { jar, response };
}

describe("item 5: the web session is checked against the sessions table", () => {
  test("the cookie carries only the token: no name, level or companies", async () => {
    const { jar, response } = await signIn("admin@demo.com.br");
    expect(response.status).toBe(302);
    const value = decodeURIComponent(jar.get("sessao")!);
    const payload = JSON.parse(Buffer.from(value.split(".")[0], "base64").toString("utf8"));
    expect(Object.keys(payload.auth)).toEqual(["token"]);
    expect(value).not.toContain(Buffer.from("Antônio").toString("base64").slice(0, 8));
  });

  test("after sign-out the old cookie no longer opens a page; sign-in says 'Sessão encerrada'", async () => {
    const { jar } = await signIn("admin@demo.com.br");
    const old = new Map(jar);
    expect((await web("/dashboard", { jar })).status).toBe(200);
    const out = await web("/logout", { method: "POST", jar, body: new URLSearchParams() });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/");
    keep(jar, out);
    const signInPage = await web("/", { jar });
    expect(await signInPage.text()).toContain("Sessão encerrada");
    const replay = await web("/dashboard", { jar: old });
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toMatch(/^\/\?redirectTo=%2Fdashboard/);
  });

  test("a password change ends the other browser's session; inactivation ends the user's sessions", async () => {
    const first = await signIn("coordenador@demo.com.br");
    const second = await signIn("coordenador@demo.com.br");
    const { token } = await (
      await fetch(`${server.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "coordenador@demo.com.br", password: DEMO_PASSWORD }),
      })
    ).json();
    const me = await (
      await fetch(`${server.url}/api/users/me`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    const change = await fetch(`${server.url}/api/users`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        userId: me.user.id,
        nome: me.user.nome,
        telefone: me.user.telefone,
        ativo: true,
        password: "outraSenha1",
        oldPassword: DEMO_PASSWORD,
      }),
    });
    expect(change.status).toBe(200);
    expect((await web("/dashboard", { jar: first.jar })).status).toBe(302);
    expect((await web("/setores", { jar: second.jar })).status).toBe(302);

    const victim = await signIn("semnivel@demo.com.br");
    expect((await web("/dashboard", { jar: victim.jar })).status).toBe(200);
    const admin = await (
      await fetch(`${server.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@demo.com.br", password: DEMO_PASSWORD }),
      })
    ).json();
    const target = await server.database.db
      .selectFrom("users")
      .select(["id", "nome", "telefone"])
      .where("email", "=", "semnivel@demo.com.br")
      .executeTakeFirstOrThrow();
    const off = await fetch(`${server.url}/api/users`, {
      method: "PUT",
      headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
      body: JSON.stringify({ userId: target.id, nome: target.nome, telefone: target.telefone, ativo: false }),
    });
    expect(off.status).toBe(200);
    expect((await web("/dashboard", { jar: victim.jar })).status).toBe(302);
  });
});

describe("a session opens only its own app's pages (docs/field-app.md 'Who, and where')", () => {
  // Both cookies are signed with one secret and the signature does not cover the cookie's name: a value moved from
  // one cookie to the other passes the signature, so the session's kind (GET /api/sessions/current) must decide.
  async function fieldSignIn(email: string) {
    const jar: Jar = new Map();
    const response = await web("/campo/entrar", {
      method: "POST",
      body: new URLSearchParams({ email, password: DEMO_PASSWORD, voltar: "" }),
    });
    expect(response.status).toBe(302);
    keep(jar, response);
    return jar;
  }
  /** The answer as a signed-out visitor gets it: the redirect, the cookie cleared, no page. */
  async function signedOut(response: Response, cookie: string) {
    const cleared = response.headers
      .getSetCookie()
      .some((line) => line.startsWith(`${cookie}=;`) && /expires=Thu, 01 Jan 1970/i.test(line));
    return {
      status: response.status,
      location: response.headers.get("location"),
      cleared,
      body: await response.text(),
    };
  }

  test("a field session's cookie value under the back office's name: every page and action is signed out", async () => {
    const field = await fieldSignIn("asg@demo.com.br");
    expect((await web("/campo", { jar: field })).status).toBe(200);
    const moved: Jar = new Map([["sessao", field.get("campo")!]]);
    for (const page of ["/dashboard", "/ambientes", "/historico-colaboradores"]) {
      expect([page, await signedOut(await web(page, { jar: moved }), "sessao")]).toEqual([
        page,
        { status: 302, location: `/?${new URLSearchParams({ redirectTo: page })}`, cleared: true, body: "" },
      ]);
    }
    const post = await web("/ambientes/cadastrar", {
      method: "POST",
      jar: moved,
      body: new URLSearchParams({ name: "Sala do campo", andar: "1" }),
    });
    expect(await signedOut(post, "sessao")).toEqual({
      status: 302,
      location: "/?redirectTo=%2Fambientes%2Fcadastrar",
      cleared: true,
      body: "",
    });
    // Signed out, not revoked: the field app keeps its session.
    expect((await web("/campo", { jar: field })).status).toBe(200);
  });

  test("a back-office session's cookie value under the field cookie's name: the field app is signed out", async () => {
    const { jar } = await signIn("principal@demo.com.br");
    expect((await web("/dashboard", { jar })).status).toBe(200);
    const moved: Jar = new Map([["campo", jar.get("sessao")!]]);
    expect(await signedOut(await web("/campo", { jar: moved }), "campo")).toEqual({
      status: 302,
      location: "/campo/entrar",
      cleared: true,
      body: "",
    });
    const signInPage = await web("/campo/entrar", { jar: moved });
    expect(signInPage.status).toBe(200);
    expect((await web("/dashboard", { jar })).status).toBe(200);
  });
});

describe("item 4: return URLs after sign-in", () => {
  for (const target of [
    "/%09/evil.example",
    "/\t/evil.example",
    "/%0a/evil.example",
    "/\\evil.example",
    "//evil.example",
    // Issue 22 item 1: dot segments that resolve to '//evil.example'.
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
  ]) {
    test(`redirectTo ${JSON.stringify(target)} lands on our home`, async () => {
      const { response } = await signIn("principal@demo.com.br", target);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/dashboard");
    });
  }

  test("a new-line in redirectTo on the sign-in page is no 500", async () => {
    const response = await web("/?redirectTo=/%0a/evil.example");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/name="redirectTo" value="\/dashboard"/);
  });

  test("our own page is kept", async () => {
    const { response } = await signIn("principal@demo.com.br", "/setores?q=sala");
    expect(response.headers.get("location")).toBe("/setores?q=sala");
  });
});

describe("item 3: body limits on the web", () => {
  test("a 200 MB form post to /?index is refused from Content-Length at once, with 413 in Portuguese", async () => {
    const url = new URL("/?index", server.url.replace("localhost", "127.0.0.1"));
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(200 * 1024 * 1024),
            origin: url.origin,
            accept: "text/html",
          },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.write("email=a".padEnd(64 * 1024, "a"));
      // The rest is never sent: the answer must come without it.
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toContain("Os dados enviados passam do limite de 1 MB.");
  });

  test("a chunked body over the limit is refused while streaming", async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 50 * 1024 * 1024) return controller.close();
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
      },
    });
    const response = await web("/?index", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(50 * 1024 * 1024);
  });
});

describe("the room page's forms: a known flood is refused before its body is read (issue 39 item 1)", () => {
  afterAll(() => forgetKnownBlocks());

  test("past the limit, a report's next post answers 429 in Portuguese at once, its body left unread; a rating still goes through", async () => {
    const room = await server.database.db
      .selectFrom("environments")
      .select("id")
      .where("deleted_at", "is", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const report = () => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ intent: "relatar", tipo: "1", descricao: "Robô", formToken: "1.x" }))
        form.set(name, value);
      return web(`/info/ambiente/${room.id}`, { method: "POST", body: form, headers: { accept: "text/html" } });
    };
    // Robots' posts count (dropped quietly, then 429 from the API): this address is now known to be over its limit.
    const statuses: number[] = [];
    for (let i = 0; i <= VISITOR_LIMITS.reportsPerAddress; i++) statuses.push((await report()).status);
    expect(statuses.at(-1)).toBe(429);

    const boundary = "limite39web";
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        // A body that never ends: only an answer given without reading it can arrive.
        pulled++;
        controller.enqueue(
          new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="c${pulled}"\r\n\r\nx\r\n`),
        );
        return new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const flooded = await web(`/info/ambiente/${room.id}`, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, accept: "text/html" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(flooded.status).toBe(429);
    expect(flooded.headers.get("connection")).toBe("close");
    expect(await flooded.text()).toContain(INCIDENT_TEXTS.tooMany);
    expect(pulled).toBeLessThan(20);

    // The rating form (a plain form) is another limit: the report's flood does not refuse it before its body.
    const rating = await web(`/info/ambiente/${room.id}`, {
      method: "POST",
      body: new URLSearchParams({ intent: "avaliar", nota: "5", formToken: "1.x" }),
      headers: { accept: "text/html" },
    });
    expect(rating.status).not.toBe(429);
  });
});

describe("item 9: bodies web actions cannot read are client errors", () => {
  test.each([
    ["application/json", '{"email":"a"}', 415],
    ["text/plain", "email=a", 415],
    ["multipart/form-data; boundary=x", "nada de multipart", 400],
    ["multipart/form-data", "--x\r\n", 400],
  ])("%s answers %s", async (type, body, status) => {
    const response = await web("/?index", { method: "POST", headers: { "content-type": type }, body });
    expect(response.status).toBe(status);
  });

  test("an empty post without a type is an empty form (sign-out works)", async () => {
    const { jar } = await signIn("auditor@demo.com.br");
    const response = await web("/logout", { method: "POST", jar });
    expect(response.status).toBe(302);
  });
});

describe("item 11: forwarded headers are not trusted without TRUST_PROXY", () => {
  test("a foreign Origin with a matching X-Forwarded-Host is refused", async () => {
    const response = await web("/?index", {
      method: "POST",
      headers: { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
      body: new URLSearchParams({ email: "a@b.c", password: "x" }),
    });
    expect(response.status).toBe(403);
  });
});

describe("item 7 through server.ts: the client address is the socket's, not a header", () => {
  test("x-client-address and X-Forwarded-For from the client do not reset the back-off", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await fetch(`${server.url}/api/sessions`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-client-address": `10.66.0.${i}`,
          "x-forwarded-for": `10.77.0.${i}`,
        },
        body: JSON.stringify({ email: "outra@demo.com.br", password: `errada-${i}` }),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toContain(429);
  });
});

describe("item 12: hardening", () => {
  test("the menu cookie is httpOnly", async () => {
    const { jar } = await signIn("principal@demo.com.br");
    const response = await web("/preferencias/menu", {
      method: "POST",
      jar,
      body: new URLSearchParams({ state: "closed", redirectTo: "/dashboard" }),
    });
    const menu = response.headers.getSetCookie().find((line) => line.startsWith("menu="));
    expect(menu).toMatch(/HttpOnly/i);
  });

  test("pages allow no inline <style> (style-src without 'unsafe-inline')", async () => {
    const response = await web("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    const styleSrc = csp.split(";").find((part) => part.trim().startsWith("style-src "));
    expect(styleSrc).toBeDefined();
    expect(styleSrc).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-inline");
  });

  test("development mode on a reachable host is warned about; local or production is not", () => {
    expect(developmentWarning({ env: "development", host: "0.0.0.0" })).toMatch(/WARNING: NODE_ENV=development/);
    expect(developmentWarning({ env: "development", host: "127.0.0.1" })).toBeNull();
    expect(developmentWarning({ env: "production", host: "0.0.0.0" })).toBeNull();
  });
});

describe("issue 22 item 10: web posts without Origin are refused", () => {
  test.each(["/logout", "/setores/cadastrar"])("POST %s without Origin answers 403", async (pathname) => {
    const { jar } = await signIn("admin@demo.com.br");
    // Node's fetch sends no Origin of its own (web() adds one).
    const response = await fetch(new URL(pathname, server.url.replace("localhost", "127.0.0.1")), {
      method: "POST",
      headers: { cookie: cookieHeader(jar), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "individual", companyId: "2", name: "Sem origem" }),
      redirect: "manual",
    });
    // Not a browser page (no Accept: text/html): the refusal's words as JSON, as the other notices.
    expect([response.status, (await response.json()).message]).toEqual([403, "Origem da requisição não permitida."]);
  });
});

describe("issue 22 item 9: a client that leaves before the answer", () => {
  test("is logged with status 499, not 500", async () => {
    const { jar } = await signIn("admin@demo.com.br");
    const info = vi.spyOn(server.logger, "info");
    // The page waits for the database (PGlite's one connection, held here) while the client gives up, as a
    // `curl -m 0.01` does against a busy PostgreSQL.
    let release = () => {};
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    const transaction = server.database.db.transaction().execute(async () => {
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    });
    try {
      await held;
      const leaving = new AbortController();
      const page = web("/dashboard", { jar, headers: { "x-request-id": "cliente-saiu" }, signal: leaving.signal });
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // the page is now waiting for the database
      leaving.abort();
      await page.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the server has seen the connection close
    } finally {
      release();
      await transaction;
    }
    const logged = () =>
      info.mock.calls.flatMap(([fields, message]) =>
        message === "request" && (fields as { requestId?: string }).requestId === "cliente-saiu"
          ? [(fields as { status: number }).status]
          : [],
      );
    try {
      await vi.waitFor(() => expect(logged()).toEqual([499]), { timeout: 5_000 });
    } finally {
      info.mockRestore();
    }
  });
});

describe("issue 22 items 5 and 12: behind one proxy of ours (TRUST_PROXY=1)", () => {
  // What nginx in front sends (README 'Behind a proxy'): X-Forwarded-For as the client wrote it with the address
  // nginx saw appended ($proxy_add_x_forwarded_for), and the host and scheme the browser used.
  const PUBLIC_ORIGIN = "https://limpeza.example.com:8443";
  const viaProxy = (clientSaw: string, clientWrote?: string) => ({
    "x-forwarded-for": clientWrote ? `${clientWrote}, ${clientSaw}` : clientSaw,
    "x-forwarded-host": "limpeza.example.com:8443",
    "x-forwarded-proto": "https",
  });
  let proxied: Awaited<ReturnType<typeof startServer>>;
  let proxiedDir: string;

  beforeAll(async () => {
    proxiedDir = mkdtempSync(path.join(tmpdir(), "security-web-proxied-"));
    proxied = await startServer(testServerConfig(proxiedDir, { TRUST_PROXY: "1" }));
  }, 120_000);

  afterAll(async () => {
    await proxied?.close();
    rmSync(proxiedDir, { recursive: true, force: true });
  });

  const post = (pathname: string, headers: Record<string, string>, body: URLSearchParams) =>
    fetch(`${proxied.url}${pathname}`, { method: "POST", headers, body, redirect: "manual" });

  test("item 5: rotating the X-Forwarded-For the client writes does not reset the sign-in back-off", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await fetch(`${proxied.url}/api/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...viaProxy("203.0.113.5", `10.77.0.${i}`) },
        body: JSON.stringify({ email: "rodizio@demo.com.br", password: `errada-${i}` }),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  test("item 12: a room's QR code holds the proxy's public origin, port included", async () => {
    const signIn = await post(
      "/?index",
      { ...viaProxy("203.0.113.6"), origin: PUBLIC_ORIGIN },
      new URLSearchParams({ email: "principal@demo.com.br", password: DEMO_PASSWORD, redirectTo: "" }),
    );
    const cookie = signIn.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const room = await proxied.database.db
      .selectFrom("environments")
      .innerJoin("users", "users.company_id", "environments.company_id")
      .select(["environments.id", "environments.qr_codigo as qrCodigo"])
      .where("users.email", "=", "principal@demo.com.br")
      .where("environments.deleted_at", "is", null)
      .orderBy("environments.id")
      .executeTakeFirstOrThrow();
    const svg = await fetch(`${proxied.url}/ambientes/${room.id}/qrcode/svg`, {
      headers: { ...viaProxy("203.0.113.6"), cookie },
    });
    expect(await svg.text()).toBe((await qrImage(qrContent(room, PUBLIC_ORIGIN), "svg")).body);
  });

  test("item 12: the password-reset e-mail asked for on the web page links to the proxy's public origin", async () => {
    await post(
      "/forgot-password",
      { ...viaProxy("203.0.113.7"), origin: PUBLIC_ORIGIN },
      new URLSearchParams({ email: "auditor@demo.com.br" }),
    );
    const mail = await proxied.database.db
      .selectFrom("outbox")
      .select("body_text")
      .where("recipient", "=", "auditor@demo.com.br")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(mail.body_text).toMatch(new RegExp(`^${PUBLIC_ORIGIN}/reset-password\\?token=[\\w%-]+$`, "m"));
  });

  test("item 12: a post whose Origin differs from the proxy's public origin in scheme is refused", async () => {
    const response = await post(
      "/?index",
      { ...viaProxy("203.0.113.8"), origin: "http://limpeza.example.com:8443" },
      new URLSearchParams({ email: "principal@demo.com.br", password: DEMO_PASSWORD, redirectTo: "" }),
    );
    expect(response.status).toBe(403);
  });
});
