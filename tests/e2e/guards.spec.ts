import { drawer, expect, submitSignIn, test, toast } from "../support/e2e-fixtures.ts";

/** Spec 000 §2 route table and route guard, DESIGN.md 'deep links survive sign-in'. Runs with and without JS. */

test.describe("signed out", () => {
  test("a private page sends to sign-in, keeping the target", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name === "no-js", "the server's redirects: the same without JS");
    test.setTimeout(100_000); // 32 pages in a row: room for a loaded machine
    for (const path of [
      "/dashboard",
      "/profile",
      "/setores",
      "/ambientes",
      "/ambientes/cadastrar",
      "/ambientes/importar",
      "/empresa-principal",
      "/pre-cadastro-usuarios",
      "/listagem-usuarios",
      "/listagem-usuarios/cadastrar",
      "/listagem-usuarios/1/editar",
      "/listagem-usuarios/1/nomes",
      "/historico-agenda",
      "/historico-colaboradores?inicio=2026-01-01&fim=2026-01-31",
      "/historico-colaboradores/1/2/2026-01-31?inicio=2026-01-01&fim=2026-01-31",
      "/historico-ambientes?inicio=2026-01-01&fim=2026-01-31&q=banheiro",
      "/historico-ambientes/1/2?inicio=2026-01-01",
      "/tarefas-incompletas?campo=datas&inicio=2026-01-01&fim=2026-01-31",
      "/tarefas-incompletas/procedimento?tarefa=Limpar%20piso",
      "/tarefas-incompletas/ambiente/1?busca=motivo",
      "/auditoria?inicio=2026-01-01&fim=2026-01-31&ambientes=1&fonte=12",
      "/auditoria/filtros?filiais=2",
      "/relatorio-cliente?inicio=2026-01-01&fim=2026-01-31&filial=2",
      "/historico-tarefas?inicio=2026-01-01&fim=2026-01-31&atividade=feitas",
      "/imagens-tarefas/1?inicio=2026-01-01&fim=2026-01-31",
      "/agendamentos",
      "/agendamentos/cadastrar",
      "/agendamentos/1/editar",
      "/agendamentos/1/remover?dia=2030-01-01",
      "/ocorrencias?status=aberta&atrasadas=1",
      "/ocorrencias/1",
      "/ocorrencias/tipos",
      "/inspecoes?resultado=reprovada&agrupar=semana",
      "/inspecoes/nova?q=banheiro",
      "/inspecoes/nova/1?reinspecao=1",
      "/inspecoes/1",
      "/inspecoes/checklists",
      "/inspecoes/checklists/cadastrar?filial=2",
      "/inspecoes/checklists/1/editar",
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(path)}`);
      await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
    }
  });

  test("downloads and dialog pages of /ambientes send to sign-in too", async ({ page, baseURL }, testInfo) => {
    test.skip(testInfo.project.name === "no-js", "plain requests, no page: the same without JS");
    for (const path of [
      "/ambientes/1/editar",
      "/ambientes/1/remover",
      "/ambientes/1/qrcode",
      "/ambientes/1/qrcode/png",
      "/ambientes/exportar.xlsx",
      "/ambientes/modelo.xlsx",
      "/ambientes/qrcodes.pdf",
      "/listagem-usuarios/exportar.xlsx",
      "/listagem-usuarios/1/nomes/1/remover",
      "/pre-cadastro-usuarios/modelo.csv",
      "/historico-colaboradores/exportar.xlsx?inicio=2026-01-01",
      "/historico-colaboradores/1/relatorio.xlsx",
      "/historico-colaboradores/1/relatorio.pdf",
      "/historico-ambientes/exportar.xlsx",
      "/historico-ambientes/exportar.pdf?q=banheiro",
      "/tarefas-incompletas/exportar.xlsx?q=piso",
      "/tarefas-incompletas/procedimento/exportar.xlsx?tarefa=Limpar%20piso",
      "/tarefas-incompletas/procedimento/exportar.pdf?tarefa=Limpar%20piso",
      "/auditoria/exportar.xlsx?ambientes=1",
      "/auditoria/exportar.pdf?fonte=12",
      "/relatorio-cliente/exportar.pdf?filial=2",
      "/relatorio-cliente/exportar.xlsx?filial=2",
      "/historico-tarefas/exportar.xlsx?inicio=2026-01-01",
      "/imagens-tarefas/exportar.xlsx?atividade=imagens",
      "/ocorrencias/1/fotos/foto.jpg",
      "/inspecoes/1/fotos/foto.jpg",
      "/inspecoes/exportar.xlsx?resultado=reprovada",
      "/inspecoes/exportar.pdf?de=2026-01-01",
    ]) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(302);
      expect(answer.headers().location, path).toBe(`/?redirectTo=${encodeURIComponent(path)}`);
    }
    for (const path of ["/ambientes/qrcodes.pdf", "/pre-cadastro-usuarios/importar"]) {
      // Playwright's requests carry no Origin (a browser's posts do), and a post without one is refused.
      const post = await page.request.post(path, {
        form: { ids: "1" },
        headers: { origin: baseURL! },
        maxRedirects: 0,
      });
      expect(post.status(), path).toBe(302);
      expect(post.headers().location, path).toMatch(/^\/\?redirectTo=/);
    }
  });

  test("an unknown path goes to /", async ({ page }) => {
    await page.goto("/nao-existe/de-jeito-nenhum?x=1");
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
  });

  test("a shared report link opens after sign-in with its query intact", async ({ page }) => {
    const target = "/historico-tarefas?inicio=2026-01-01&fim=2026-01-31";
    await page.goto(target);
    await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(target)}`);
    await submitSignIn(page, "principal@demo.com.br");
    await expect(page).toHaveURL(target);
    await expect(page.getByRole("heading", { level: 1, name: "Atividades" })).toBeVisible();
  });

  test("a redirectTo to another site is ignored", async ({ page }) => {
    await page.goto("/?redirectTo=%2F%2Fexemplo.com%2Froubo");
    await submitSignIn(page, "principal@demo.com.br");
    await expect(page).toHaveURL("/dashboard");
  });
});

test.describe("signed in", () => {
  test("public-only pages send to /dashboard", async ({ page, signInAs }) => {
    await signInAs("principal");
    for (const path of ["/", "/signup", "/forgot-password", "/reset-password?token=abc"]) {
      await page.goto(path);
      await expect(page).toHaveURL("/dashboard");
    }
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  });

  test("an unknown path goes to / and from there home", async ({ page, signInAs }) => {
    await signInAs("auditor");
    await page.goto("/pagina-inexistente");
    await expect(page).toHaveURL("/dashboard");
  });

  test("a page outside the role gives 'Permissão negada!'", async ({ page, signInAs }) => {
    await signInAs("admin");
    await page.goto("/empresa-principal");
    await expect(page).toHaveURL("/dashboard");
    await expect(toast(page, "Permissão negada!")).toBeVisible();
  });

  test("an auditor may not open the registers", async ({ page, signInAs }) => {
    await signInAs("auditor");
    await page.goto("/setores");
    await expect(page).toHaveURL("/dashboard");
    await expect(toast(page, "Permissão negada!")).toBeVisible();
    await page.goto("/ambientes");
    await expect(page).toHaveURL("/dashboard");
    await expect(toast(page, "Permissão negada!")).toBeVisible();
    // Nor its downloads.
    for (const path of [
      "/ambientes/exportar.xlsx",
      "/ambientes/1/qrcode/pdf",
      "/listagem-usuarios/exportar.xlsx",
      "/pre-cadastro-usuarios/modelo.csv",
    ]) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(302);
      expect(answer.headers().location, path).toBe("/dashboard");
    }
  });

  test("a client is sent to its own home, the task report", async ({ page, signInAs }) => {
    await signInAs("cliente");
    await page.goto("/faq");
    await expect(page).toHaveURL("/historico-tarefas");
    await expect(toast(page, "Permissão negada!")).toBeVisible();
    await page.goto("/signup");
    await expect(page).toHaveURL("/historico-tarefas");
  });
});

test("'Sair' signs out and revokes the session", async ({ page, context }) => {
  await page.goto("/");
  await submitSignIn(page, "semnivel@demo.com.br");
  await expect(page).toHaveURL("/dashboard");
  const signedIn = await context.cookies();

  await drawer(page).getByRole("button", { name: "Sair" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("heading", { name: "Bem vindo!" })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL("/?redirectTo=%2Fdashboard");

  // Even the old cookie, replayed, no longer reaches the API: its token was revoked.
  await context.addCookies(signedIn.filter((cookie) => cookie.name === "sessao"));
  await page.goto("/profile");
  await expect(page).toHaveURL("/?redirectTo=%2Fprofile");
});

// Branches and main companies (tests/e2e/organisation.spec.ts has their flows).
test("/filiais and /empresa-principal pages and downloads send a signed-out visitor to sign-in", async ({ page }) => {
  for (const path of ["/filiais", "/filiais/cadastrar", "/filiais/1/editar", "/empresa-principal/cadastrar"]) {
    await page.goto(path);
    await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(path)}`);
  }
  for (const path of ["/filiais/exportar.xlsx", "/empresa-principal/exportar.xlsx", "/empresa-principal/1/editar"]) {
    const answer = await page.request.get(path, { maxRedirects: 0 });
    expect(answer.status(), path).toBe(302);
  }
});

test("'Filiais' is for roles 1 and 2, 'Empresa matriz' for roleId 1 (spec 000 §2)", async ({ page, signInAs }) => {
  await signInAs("auditor");
  for (const path of ["/filiais", "/filiais/cadastrar", "/empresa-principal", "/empresa-principal/exportar.xlsx"]) {
    if (path.endsWith(".xlsx")) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(302);
      expect(answer.headers().location, path).toBe("/dashboard");
      continue;
    }
    await page.goto(path);
    await expect(page).toHaveURL("/dashboard");
    await expect(toast(page, "Permissão negada!")).toContainText("Você não tem acesso a esta página.");
  }
});
