import { expect, submitSignIn, test, toast } from "../support/e2e-fixtures.ts";

/** Issue 7 items 4 and 5 in the browser, with and without JavaScript. */

test.describe("item 4: return URLs after sign-in stay on our site", () => {
  for (const target of ["/%09/evil.example", "/%0a/evil.example", "/%5Cevil.example", "//evil.example"]) {
    test(`redirectTo=${target}`, async ({ page }) => {
      await page.goto(`/?redirectTo=${target}`);
      await submitSignIn(page, "principal@demo.com.br");
      await expect(page).toHaveURL("/dashboard");
      expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL!).host);
    });
  }

  test("a page of ours is where sign-in returns", async ({ page }) => {
    await page.goto("/setores?q=sala");
    await expect(page).toHaveURL("/?redirectTo=%2Fsetores%3Fq%3Dsala");
    await submitSignIn(page, "principal@demo.com.br");
    await expect(page).toHaveURL("/setores?q=sala");
  });
});

test.describe("item 5: sessions end on the server", () => {
  test("after 'Sair', the old cookie does not open /dashboard; sign-in shows 'Sessão encerrada'", async ({
    page,
    context,
  }) => {
    await page.goto("/");
    await submitSignIn(page, "auditor@demo.com.br");
    await expect(page).toHaveURL("/dashboard");
    const old = (await context.cookies()).filter((cookie) => cookie.name === "sessao");
    await page.getByRole("navigation", { name: "Menu principal" }).getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL("/");
    await expect(toast(page, "Sessão encerrada", "status")).toBeVisible();

    await context.addCookies(old);
    await page.goto("/dashboard");
    await expect(page).toHaveURL("/?redirectTo=%2Fdashboard");
    await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
  });

  test("the cookie holds no name or level", async ({ page, context }) => {
    await page.goto("/");
    await submitSignIn(page, "principal@demo.com.br");
    await expect(page).toHaveURL("/dashboard");
    const cookie = (await context.cookies()).find((candidate) => candidate.name === "sessao")!;
    const payload = Buffer.from(decodeURIComponent(cookie.value).split(".")[0], "base64").toString("utf8");
    expect(Object.keys(JSON.parse(payload).auth)).toEqual(["token"]);
    expect(payload).not.toContain("Paula");
    expect(cookie.httpOnly).toBe(true);
  });

  test("a session revoked elsewhere (another browser signs out everything) ends here on the next page", async ({
    page,
    browser,
    createUser,
  }) => {
    // A user of its own: revoking a shared demo account's sessions would sign out tests running beside this one.
    const user = await createUser();
    await page.goto("/");
    await submitSignIn(page, user.email, user.password);
    await expect(page).not.toHaveURL(/\/$|\/\?/);
    // Another browser: sign in through the API and revoke this user's sessions as a password change does.
    const other = await browser.newContext();
    const api = other.request;
    const { token } = await (
      await api.post("/api/sessions", { data: { email: user.email, password: user.password } })
    ).json();
    const me = await (await api.get("/api/users/me", { headers: { authorization: `Bearer ${token}` } })).json();
    const changed = await api.put("/api/users", {
      headers: { authorization: `Bearer ${token}` },
      data: {
        userId: me.user.id,
        nome: me.user.nome,
        telefone: me.user.telefone,
        ativo: true,
        password: "senha-trocada-2",
        oldPassword: user.password,
      },
    });
    expect(changed.status()).toBe(200);
    await other.close();
    await page.goto("/dashboard");
    await expect(page).toHaveURL("/?redirectTo=%2Fdashboard");
  });
});

test.describe("issue 10: another tenant's environments are not found on any web route", () => {
  test("edit, remove, QR page and downloads answer 404; a removal or bulk PDF of its ids does nothing (404)", async ({
    page,
    context,
    signInAs,
    baseURL,
    allowConsoleErrors,
  }) => {
    allowConsoleErrors(/status of 404/);
    // An environment of the demo tenant, as its administrator sees it.
    await signInAs("admin");
    await page.goto("/ambientes");
    const id = (await page.locator('input[name="ids"]').first().getAttribute("value"))!;
    const name = (await page.locator("table.data-table tbody tr td.col-primary").first().textContent())!;
    expect(Number(id)).toBeGreaterThan(0);
    await context.clearCookies();

    await signInAs("outra");
    for (const path of [
      `/ambientes/${id}/editar`,
      `/ambientes/${id}/remover`,
      `/ambientes/${id}/qrcode`,
      `/ambientes/${id}/qrcode/png`,
      `/ambientes/${id}/qrcode/pdf`,
    ]) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(404);
      expect(await answer.text(), path).not.toContain(name);
    }
    // Its list does not show it.
    await page.goto(`/ambientes?q=${encodeURIComponent(name)}`);
    await expect(page.getByRole("cell", { name, exact: true })).toHaveCount(0);
    // A removal is refused by the API (nothing removed); the bulk PDF answers another tenant's room 404, no PDF.
    // Playwright's requests carry no Origin (a browser's posts do), and a post without one is refused.
    const removal = await page.request.post(`/ambientes/${id}/remover`, {
      form: { redirectTo: "/ambientes" },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(removal.status()).toBe(302);
    const bulk = await page.request.post("/ambientes/qrcodes.pdf", {
      form: { ids: id, redirectTo: "/ambientes" },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(bulk.status()).toBe(404);
    expect(bulk.headers()["content-type"] ?? "").not.toContain("pdf");
    expect(await bulk.text()).toContain("Ambiente não encontrado");
    await context.clearCookies();
    await signInAs("admin");
    await page.goto(`/ambientes/${id}/qrcode`);
    await expect(page.getByRole("heading", { name: `QR code: ${name}` })).toBeVisible();
  });

  test("ids beyond a PostgreSQL integer, or not numbers, are 404 (never a 500)", async ({
    page,
    signInAs,
    baseURL,
  }) => {
    await signInAs("admin");
    for (const id of ["2147483648", "99999999999999999999", "-1", "0", "1e3", "abc"]) {
      for (const path of [`/ambientes/${id}/editar`, `/ambientes/${id}/qrcode`, `/ambientes/${id}/qrcode/svg`]) {
        const answer = await page.request.get(path, { maxRedirects: 0 });
        expect(answer.status(), path).toBe(404);
      }
    }
    const unknownFormat = await page.request.get("/ambientes/1/qrcode/gif", { maxRedirects: 0 });
    expect(unknownFormat.status()).toBe(404);
    const bulk = await page.request.post("/ambientes/qrcodes.pdf", {
      form: { ids: "2147483648", redirectTo: "/ambientes" },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(bulk.status()).toBe(302);
  });
});
