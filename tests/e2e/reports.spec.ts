import ExcelJS from "exceljs";

import { businessToday } from "../support/e2e-agendas.ts";
import { BRANCHES, uniquePrefix } from "../support/e2e-catalogues.ts";
import { apiToken, createEnvironments } from "../support/e2e-environments.ts";
import { expect, test } from "../support/e2e-fixtures.ts";

/**
 * The history reports (issue 23; docs/reports.md), with JS and without: a report's deep link opened signed out lands
 * on the same view after sign-in, and a refused period keeps the last valid view with the §5 toast.
 */

test("collaborators: a shared link opens after sign-in; a date after today keeps the last view ('Filtro inválido')", async ({
  page,
  request,
}, testInfo) => {
  // A room of its own with a cleaning today for Bruno Lima (Messejana).
  const today = businessToday();
  const [room] = await createEnvironments(request, [
    { name: `${uniquePrefix(testInfo)} Relatório`, andar: "Térreo", branch: "messejana" },
  ]);
  const headers = { authorization: `Bearer ${await apiToken(request)}` };
  const asgs = await request.get(`/api/agendas/v2/Agendamentos/listaAsg?filialId=${BRANCHES.messejana.id}`, {
    headers,
  });
  const bruno = ((await asgs.json()) as { id: number; nome: string }[]).find((user) => user.nome === "Bruno Lima")!;
  const saved = await request.post("/api/agendas/v2/saveAgenda", {
    headers,
    data: [
      {
        Id_EmpresasFilial: BRANCHES.messejana.id,
        Id_Environments: room,
        Id_Users: bruno.id,
        Periodicidade: {
          type: "12X",
          DIAS_SEMANA: "",
          hora_base_inicial: "06:00",
          hora_base_final: "06:30",
          Revisoes: [],
        },
        revisionPhotos: false,
        vigIni: today,
        vigFim: today,
      },
    ],
  });
  expect(saved.status(), await saved.text()).toBe(201);

  const view = `/historico-colaboradores?inicio=${today}&fim=${today}&filial=${BRANCHES.messejana.id}&ordem=agendamentos&dir=desc`;
  await page.goto(view);
  await expect(page).toHaveURL(`/?redirectTo=${encodeURIComponent(view)}`);
  await page.locator("input[name=email]").fill("admin@demo.com.br");
  await page.locator("input[name=password]").fill("demo1234");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(view);
  await expect(page.getByRole("heading", { level: 1, name: "Colaboradores" })).toBeVisible();
  await expect(page.getByLabel("Data inicial")).toHaveValue(today);
  await expect(page.getByRole("combobox", { name: "Filial" })).toHaveValue(String(BRANCHES.messejana.id));
  const rows = page.getByRole("table", { name: "Colaboradores" }).getByRole("row");
  await expect(rows.filter({ hasText: "Bruno Lima" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Sebastião ASG" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: /Agendamentos/ })).toHaveAttribute("aria-sort", "descending");

  await page.getByLabel("Data final").fill("2099-01-01");
  await page
    .getByRole("search")
    .getByRole("button", { name: /^Buscar/ })
    .click();
  await expect(page.getByText("Intervalo de datas inválidos, favor verificar")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`inicio=${today}&fim=${today}`));
  await expect(page).not.toHaveURL(/Anterior/);
  await expect(page.getByLabel("Data final")).toHaveValue(today);
  await expect(rows.filter({ hasText: "Bruno Lima" })).toHaveCount(1);

  // The column-filter dialog ('Colunas'): the list shows the columns ticked; the URL keeps them.
  await page.getByText("Colunas", { exact: true }).first().click();
  const columns = page.getByRole("group", { name: "Colunas" });
  await columns.getByLabel("Telefone").uncheck();
  await columns.getByLabel("Incompletos").uncheck();
  await columns.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/colunas=cpf/);
  await expect(page.getByRole("columnheader", { name: "Telefone" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Incompletos" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: /Não realizados/ })).toBeVisible();

  // 'Exportar Excel' holds the list as shown, every page of it: the same rows, cell for cell. Other tests may schedule
  // for the same people meanwhile, so the screen and the file are read again until they were read in the same state.
  await expect(async () => {
    await page.reload();
    const table = page.getByRole("table", { name: "Colaboradores" });
    const onScreen = await table
      .getByRole("row")
      .filter({ has: page.getByRole("cell") })
      .evaluateAll((lines) =>
        lines.map((line) => [...line.querySelectorAll("td")].map((cell) => cell.textContent!.trim())),
      );
    const headers = await table
      .getByRole("columnheader")
      .evaluateAll((cells) => cells.map((cell) => cell.textContent!.replace(/[▲▼↕]/g, "").trim()));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Exportar Excel" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`relatorio-colaboradores-${today.split("-").reverse().join("-")}.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0];
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(headers);
    const inFile = Array.from({ length: sheet.actualRowCount - 1 }, (_, index) =>
      (sheet.getRow(index + 2).values as unknown[]).slice(1).map(String),
    );
    expect(inFile).toEqual(onScreen);
  }).toPass({ timeout: 30_000 });
});
