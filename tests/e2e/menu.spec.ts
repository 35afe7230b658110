import type { SharedAccount } from "../support/e2e-data.ts";
import { drawer, expect, test, toast, toggleDrawer } from "../support/e2e-fixtures.ts";

/** Spec 000 §2 'Layout' and §6 'Menu': the drawer per role, the top bar, the drawer toggle. Runs with and without JS. */

const REPORTS = [
  "Colaboradores",
  "Ambientes",
  "Tarefas incompletas",
  "Agenda",
  "Atividades",
  "Imagens",
  "Relatório do cliente",
];
const REGISTERS = ["Procedimentos", "Riscos", "Setores", "Categorias", "Ambientes", "Agendamento"];
const USERS = ["Pré-cadastro", "Listagem"];

const MENUS: Record<SharedAccount, { home: string; groups: string[]; links: string[] }> = {
  principal: {
    home: "/dashboard",
    groups: ["Cadastros", "Usuários", "Relatórios"],
    links: [
      "Início",
      "Ocorrências",
      "Inspeções",
      "Empresa matriz",
      "Filiais",
      ...REGISTERS,
      ...USERS,
      ...REPORTS,
      "Auditoria",
      "FAQ",
    ],
  },
  admin: {
    home: "/dashboard",
    groups: ["Cadastros", "Usuários", "Relatórios"],
    links: ["Início", "Ocorrências", "Inspeções", "Filiais", ...REGISTERS, ...USERS, ...REPORTS, "Auditoria", "FAQ"],
  },
  coordenador: {
    home: "/dashboard",
    groups: ["Cadastros", "Usuários", "Relatórios"],
    links: ["Início", "Ocorrências", "Inspeções", ...REGISTERS, ...USERS, ...REPORTS, "Auditoria", "FAQ"],
  },
  auditor: {
    home: "/dashboard",
    groups: ["Relatórios"],
    links: ["Início", "Ocorrências", "Inspeções", ...REPORTS, "Auditoria"],
  },
  // Clients: no Início, no Cadastros, their branch's incidents (issue 28), reports only with the task ones.
  cliente: {
    home: "/historico-tarefas",
    groups: ["Relatórios"],
    links: ["Ocorrências", "Inspeções", "Atividades", "Imagens", "Relatório do cliente", "Auditoria"],
  },
  // The other tenant's administrator: the same menu as the demo one's.
  outra: {
    home: "/dashboard",
    groups: ["Cadastros", "Usuários", "Relatórios"],
    links: ["Início", "Ocorrências", "Inspeções", "Filiais", ...REGISTERS, ...USERS, ...REPORTS, "Auditoria", "FAQ"],
  },
  // No role: the registers, but no FAQ in the menu.
  semnivel: {
    home: "/dashboard",
    groups: ["Cadastros", "Usuários", "Relatórios"],
    links: ["Início", "Ocorrências", "Inspeções", ...REGISTERS, ...USERS, ...REPORTS, "Auditoria"],
  },
};

for (const [account, menu] of Object.entries(MENUS) as [SharedAccount, (typeof MENUS)[SharedAccount]][]) {
  test(`the drawer of ${account} has exactly its entries`, async ({ page, signInAs, javaScriptEnabled }) => {
    // The drawer is server-rendered: the same HTML with or without JS, so once (with hydration) is enough.
    test.skip(!javaScriptEnabled, "server-rendered: checked in the js project");
    await signInAs(account);
    await page.goto(menu.home);
    const nav = drawer(page);
    await expect(nav).toBeVisible();
    await expect(nav.locator("summary")).toHaveText(menu.groups);
    await expect(nav.getByRole("link")).toHaveText(menu.links);
    await expect(nav.getByRole("button", { name: "Sair" })).toBeVisible();
  });
}

test("the top bar shows the name, and its menu the company and access level", async ({ page, signInAs }) => {
  await signInAs("principal");
  await page.goto("/dashboard");
  const topBar = page.getByRole("banner");
  const profileLink = topBar.getByRole("link", { name: /Paula Principal/ });
  await expect(profileLink).toHaveAttribute("href", "/profile");
  await expect(topBar.getByRole("img", { name: "Avatar padrão" })).toBeVisible();
  await profileLink.hover();
  await expect(topBar.getByRole("link", { name: "Acessar meu perfil" })).toBeVisible();
  await expect(topBar.getByText("Hospital Boa Saúde")).toBeVisible();
  await expect(topBar.getByText("Administrador (P)")).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()}`);
  await topBar.getByRole("link", { name: "Acessar meu perfil" }).click();
  await expect(page).toHaveURL("/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Meu perfil" })).toBeVisible();
});

test("drawer links open their pages and mark the current one; with JS without reloading the document", async ({
  page,
  signInAs,
  javaScriptEnabled,
}) => {
  await signInAs("principal");
  await page.goto("/dashboard");
  const documents: string[] = [];
  if (javaScriptEnabled) {
    // Plain links followed by root.tsx's click handler (app/lib/link-navigation.ts): the page is never reloaded.
    await page.waitForFunction(() => Object.keys(document).some((key) => key.startsWith("__reactContainer$")));
    page.on("request", (request) => request.resourceType() === "document" && documents.push(request.url()));
  }
  const nav = drawer(page);
  await nav.getByRole("link", { name: "FAQ" }).click();
  await expect(page).toHaveURL("/faq");
  await expect(page.getByRole("heading", { level: 1, name: "Perguntas frequentes" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Filiais" }).click();
  await expect(page).toHaveURL("/filiais");
  await expect(page.getByRole("heading", { level: 1, name: "Filiais" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Filiais" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "FAQ" })).not.toHaveAttribute("aria-current");
  // A list row's link is a plain link too.
  await page
    .getByRole("link", { name: /^Editar / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/filiais\/\d+\/editar/);
  await expect(nav.getByRole("link", { name: "Filiais" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Início" }).click();
  await expect(page).toHaveURL("/dashboard");
  expect(documents).toEqual([]);
});

test("an admin without a master CPF gets 'Permissão negada!' from 'Filiais'", async ({ page, signInAs }) => {
  await signInAs("admin");
  await page.goto("/dashboard");
  await drawer(page).getByRole("link", { name: "Filiais" }).click();
  await expect(toast(page, "Permissão negada!")).toContainText(
    "Para cadastrar uma nova FILIAL entre em contato com o administrador do sistema",
  );
  await expect(page).toHaveURL("/dashboard");
});

test("the drawer closes and opens, and the choice is remembered", async ({ page, signInAs }) => {
  await signInAs("coordenador");
  await page.goto("/dashboard");
  const nav = drawer(page);
  await expect(nav).toBeVisible();
  await expect(page.getByRole("button", { name: "Abrir menu" })).toBeHidden();

  await toggleDrawer(page, "Fechar menu");
  await expect(nav).toBeHidden();
  await expect(page).toHaveURL("/dashboard");
  await expect(page.getByRole("button", { name: "Abrir menu" })).toBeVisible();

  await page.reload();
  await expect(nav).toBeHidden();
  await page.goto("/faq");
  await expect(nav).toBeHidden();

  await toggleDrawer(page, "Abrir menu");
  await expect(nav).toBeVisible();
  // Without JS opening comes back at #menu (what shows the drawer on a phone).
  await expect(page).toHaveURL(/\/faq(#menu)?$/);
  await page.reload();
  await expect(nav).toBeVisible();
  await expect(page.getByRole("button", { name: "Fechar menu" })).toBeVisible();
});

test("on a narrow window the drawer starts closed and opens on demand", async ({ page, signInAs }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signInAs("coordenador");
  await page.goto("/dashboard");
  const nav = drawer(page);
  await expect(nav).toBeHidden();
  await toggleDrawer(page, "Abrir menu");
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("link", { name: "Início" })).toBeVisible();
  await toggleDrawer(page, "Fechar menu");
  await expect(nav).toBeHidden();
});

test("'Sem Conexão' shows while the browser is offline (JS)", async ({
  page,
  context,
  signInAs,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "watching the connection needs JavaScript");
  await signInAs("coordenador");
  await page.goto("/dashboard");
  const dialog = page.getByRole("alertdialog", { name: "Sem Conexão" });
  await expect(dialog).toBeHidden();
  // Offline before the scripts have loaded, the page would never run them: wait until React has taken the document.
  await page.waitForFunction(() => Object.keys(document).some((key) => key.startsWith("__reactContainer$")));
  // And until Remix has fetched the routes of the page's links (lazy route discovery, /__manifest): cut off, that
  // request fails with console errors (the board's cards link to detail routes the page has not loaded yet).
  await page.waitForLoadState("networkidle");
  await context.setOffline(true);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Por favor, se conecte para ter acesso ao sistema.");
  await expect(dialog.getByRole("button", { name: "Recarregar" })).toBeVisible();
  await context.setOffline(false);
  await expect(dialog).toBeHidden();
});
