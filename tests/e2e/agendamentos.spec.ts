import type { Locator, Page } from "@playwright/test";

import { businessToday, createCalendarAgendas, daysOf, monthFrom } from "../support/e2e-agendas.ts";
import { branchOption, hydrated, uniquePrefix } from "../support/e2e-catalogues.ts";
import { createEnvironments } from "../support/e2e-environments.ts";
import { expect, screenshot, test, toast } from "../support/e2e-fixtures.ts";

/**
 * /agendamentos (spec 001 §2.1-2.3, §5, §8), with JS and without: the register tab (company, collaborator, the item
 * step 'Criar novo item', the items table, 'Cadastrar') with the rules' exact messages, the bookings on /historico-agenda,
 * the list tab's cards with 'Editar' (change times, deactivate) and 'Remover' (confirmation). Each test schedules next
 * month (a validity cannot start in the past) in environments named with its own prefix, and searches for it.
 */

const T = {
  blankTitle: "Campos em branco",
  blankDescription: "Existem campos obrigatórios não preenchidos.",
  collaboratorRequired: "Colaborador é obrigatório",
  itemsRequired: "É necessário pelo menos uma agenda.",
  environmentRequired: "Ambiente é obrigatório",
  startRequired: "Início é obrigatório!",
  endRequired: "Fim é obrigatório!",
  vigFimRequired: "Data de vigência final é obrigatória",
  timeOrderTitle: "Horários incorretos",
  timeOrder: "A ordem de horários está incorreta ou sua periodicidade está abrangendo mais de 1 dia. Favor corrigir.",
  timeTitle: "Horário incorreto",
  slot1: "Horário incorreto - O 1º horário inicial está maior ou igual ao horário final",
  weekdaysRequired: "Nenhum dia da semana foi selecionado",
  created: "O agendamento foi cadastrado com sucesso e já pode ser visualizado no calendário",
  edited: "A agenda foi alterado com sucesso!",
  deleted: "Agendamento deletado com sucesso",
  removeQuestion: "Tem certeza que deseja remover?",
  noResults: "Nenhum resultado para a busca.",
  cleaningsRange: "A quantidade de limpezas deve ser de 1 a 20",
  companyChanged: "A empresa foi trocada: escolha o colaborador e os itens desta empresa.",
  pairsRedrawn: "A quantidade de limpezas mudou: preencha os horários abaixo e cadastre o item.",
  confirmRemove: "Tem certeza que deseja remover?",
} as const;

const ASG = "Sebastião ASG";

/** The item step: a dialog with JS, a section of the page without. */
function itemStep(page: Page, javaScriptEnabled: boolean) {
  return javaScriptEnabled
    ? page.getByRole("dialog", { name: "Criar novo item" })
    : page.getByRole("region", { name: "Criar novo item" });
}

async function fillPair(scope: Locator, legend: string, ini: string, fim: string) {
  const pair = scope.getByRole("group", { name: legend, exact: true });
  await pair.getByLabel("Início").fill(ini);
  await pair.getByLabel("Fim").fill(fim);
}

async function setCount(scope: Locator, count: number, javaScriptEnabled: boolean) {
  await scope.getByLabel("Quantidade de limpezas").fill(String(count));
  if (!javaScriptEnabled) await scope.getByRole("button", { name: "Atualizar horários" }).click();
}

function cards(page: Page, environment: string) {
  return page.locator(".calendar-card").filter({ hasText: environment });
}

test("create an agenda of two items, see its bookings, edit, deactivate and remove a booking", async ({
  page,
  request,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  test.setTimeout(120_000);
  // Refused forms answer 400 (without JS the browser logs it as a failed load).
  allowConsoleErrors(/status of 400/);
  const prefix = uniquePrefix(testInfo);
  const sala = `${prefix} Sala`;
  const copa = `${prefix} Copa`;
  await createEnvironments(request, [
    { name: sala, andar: "Térreo", branch: "aldeota" },
    { name: copa, andar: "Térreo", branch: "aldeota" },
  ]);
  const mes = monthFrom(businessToday(), 1);
  const days = daysOf(mes);
  const first = days[0];
  const last = days.at(-1)!;
  const monday = days.find((day) => day.weekday === 1)!;
  const js = javaScriptEnabled ?? true;

  await signInAs("admin");
  await page.goto("/agendamentos/cadastrar");
  await expect(page.getByRole("heading", { level: 1, name: "Agendamentos" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Listar agendamentos" })).toBeVisible();
  await hydrated(page, js, "#empresa");

  // The company: with JS the page follows the select; without it 'Carregar' reloads the form for it, and another
  // button pressed after a change without 'Carregar' says the form now is that company's (issue 27).
  if (!js) {
    await page.getByLabel("Empresa").selectOption({ label: branchOption("messejana") });
    await page.getByRole("button", { name: "Criar novo item" }).click();
    await expect(toast(page, T.companyChanged, "status")).toBeVisible();
    await expect(page).toHaveURL(/empresa=3/);
  }
  await page.getByLabel("Empresa").selectOption({ label: branchOption("aldeota") });
  if (!js) await page.getByRole("button", { name: "Carregar" }).click();
  await expect(page).toHaveURL(/empresa=2/);
  await hydrated(page, js, "#empresa");

  // Nothing chosen: the form's own messages.
  await page.getByRole("button", { name: "Cadastrar", exact: true }).click();
  await expect(toast(page, T.blankTitle)).toContainText(T.blankDescription);
  await expect(page.getByText(T.collaboratorRequired)).toBeVisible();
  await expect(page.getByText(T.itemsRequired)).toBeVisible();

  await page.getByLabel("Colaborador").selectOption({ label: ASG });

  // Item 1: Semanal, Monday and Wednesday, a cleaning and two revisions.
  await page.getByRole("button", { name: "Criar novo item" }).click();
  let step = itemStep(page, js);
  await expect(step).toBeVisible();
  await step.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, T.blankTitle)).toContainText(T.blankDescription);
  await expect(step.getByText(T.environmentRequired)).toBeVisible();
  await expect(step.getByText(T.startRequired)).toBeVisible();
  await expect(step.getByText(T.endRequired)).toBeVisible();
  await expect(step.getByText(T.vigFimRequired)).toBeVisible();

  step = itemStep(page, js);
  await step.getByLabel("Ambiente").selectOption({ label: sala });
  await expect(step.getByRole("group", { name: /^Dias da semana/ })).toBeVisible();
  // A count outside 1 to 20 is said as soon as the pairs are redrawn, not silently drawn as 20.
  await setCount(step, 25, js);
  step = itemStep(page, js);
  await expect(step.getByText(T.cleaningsRange)).toBeVisible();
  await expect(step.locator(".time-pair")).toHaveCount(20);
  await setCount(step, 3, js);
  step = itemStep(page, js);
  await expect(step.getByText(T.cleaningsRange)).toHaveCount(0);
  if (!js) {
    // Without JS the box says what the next post does: 'Marcar todos', then 'Desmarcar todos' once all are ticked.
    await step.getByLabel("Marcar todos").check();
    await step.getByRole("button", { name: "Atualizar horários" }).click();
    step = itemStep(page, js);
    await expect(
      step.getByRole("group", { name: /^Dias da semana/ }).getByRole("checkbox", { checked: true }),
    ).toHaveCount(7);
    await step.getByLabel("Desmarcar todos").check();
    await step.getByRole("button", { name: "Atualizar horários" }).click();
    step = itemStep(page, js);
    await expect(step.getByLabel("Marcar todos")).not.toBeChecked();
    await expect(step.getByLabel("Segunda")).not.toBeChecked();
  }
  await fillPair(step, "Limpeza", "07:00", "08:00");
  await fillPair(step, "1ª Revisão", "07:30", "10:30");
  await fillPair(step, "2ª Revisão", "14:00", "14:30");
  await step.getByLabel("Vigência inicial").fill(first.iso);
  await step.getByLabel("Vigência final").fill(last.iso);
  await step.getByRole("button", { name: "Cadastrar" }).click();
  // No weekday yet: the spec's message first.
  await expect(toast(page, T.blankTitle)).toContainText(T.weekdaysRequired);
  step = itemStep(page, js);
  await step.getByLabel("Segunda").check();
  await step.getByLabel("Quarta").check();
  await step.getByRole("button", { name: "Cadastrar" }).click();
  await expect(toast(page, T.timeOrderTitle)).toContainText(T.timeOrder);
  step = itemStep(page, js);
  await expect(step.getByText(T.timeOrder)).toBeVisible();
  await fillPair(step, "1ª Revisão", "10:00", "10:30");
  await step.getByRole("button", { name: "Cadastrar" }).click();
  await expect(step).toBeHidden();

  const table = page.getByRole("table", { name: "Itens do agendamento" });
  const salaRow = table.getByRole("row").filter({ hasText: sala });
  await expect(salaRow).toContainText("Semanal");
  await expect(salaRow).toContainText("Segunda - Quarta");
  await expect(salaRow).toContainText("07:00 - 08:00");
  await expect(salaRow).toContainText("14:00 - 14:30");
  const br = (iso: string) => iso.split("-").reverse().join("/");
  await expect(salaRow).toContainText(`${br(first.iso)} até ${br(last.iso)}`);

  // Item 2: 12X, one cleaning.
  await page.getByRole("button", { name: "Criar novo item" }).click();
  step = itemStep(page, js);
  if (!js) {
    // A count changed without 'Atualizar horários': the pairs are redrawn and said, no item is added unseen.
    await step.getByLabel("Quantidade de limpezas").fill("2");
    await step.getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, T.pairsRedrawn, "status")).toBeVisible();
    step = itemStep(page, js);
    await expect(step.locator(".time-pair")).toHaveCount(2);
    await setCount(step, 1, js);
    step = itemStep(page, js);
  }
  await step.getByLabel("Ambiente").selectOption({ label: copa });
  await step.getByLabel("Tipo de Periodicidade", { exact: true }).selectOption("12X");
  await fillPair(step, "Limpeza", "09:00", "09:30");
  await step.getByLabel("Vigência inicial").fill(first.iso);
  await step.getByLabel("Vigência final").fill(last.iso);
  await step.getByRole("button", { name: "Cadastrar" }).click();
  await expect(step).toBeHidden();
  await expect(table.getByRole("row").filter({ hasText: copa })).toContainText("12X");
  await expect(table.getByRole("row").filter({ hasText: copa })).toContainText("Dia sim, dia não");
  // 'Remover' asks first (spec §2.2), with JS in a dialog, without in a section of the page; 'Não' keeps the line.
  await table.getByRole("button", { name: `Remover ${copa}` }).click();
  await expect(page.getByText(T.confirmRemove)).toBeVisible();
  await page.getByRole("button", { name: "Não" }).click();
  await expect(page.getByText(T.confirmRemove)).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: copa })).toHaveCount(1);
  // The collaborator chosen before the item steps is still chosen.
  await expect(page.getByLabel("Colaborador")).toHaveValue(/\d+/);

  await page.getByRole("button", { name: "Cadastrar", exact: true }).click();
  await expect(toast(page, T.created, "status")).toBeVisible();
  await expect(page).toHaveURL(/\/agendamentos$/);

  // The bookings on the calendar: Monday has Sala's three slots; the validity's first day has Copa's (12X).
  const q = encodeURIComponent(prefix);
  await page.goto(`/historico-agenda?mes=${mes}&dia=${monday.iso}&q=${q}`);
  await expect(cards(page, sala)).toHaveCount(3);
  await expect(cards(page, sala).first()).toContainText("07:00 - 08:00");
  await expect(cards(page, sala).first()).toContainText("Principal");
  await expect(cards(page, sala).nth(1)).toContainText("10:00 - 10:30");
  await expect(cards(page, sala).nth(1)).toContainText("Revisão");
  await page.goto(`/historico-agenda?mes=${mes}&dia=${first.iso}&q=${q}`);
  await expect(cards(page, copa)).toHaveCount(1);
  await expect(cards(page, copa)).toContainText("09:00 - 09:30");
  // Its detail on the board says how a 12X agenda's days go (issue 27), not 'Dias da semana: 12X'.
  await page.goto(`/dashboard?inicio=${first.iso}&fim=${first.iso}&q=${encodeURIComponent(copa)}&campos=ambiente`);
  await page
    .getByRole("link", { name: /09:00 - 09:30/ })
    .first()
    .click();
  await expect(page.getByText("Dia sim, dia não")).toBeVisible();

  // Edit Sala from its Monday card: a wrong time first, then 06:00 - 07:00.
  await page.goto(`/agendamentos?mes=${mes}&dia=${monday.iso}&q=${q}`);
  await page.getByRole("link", { name: `Editar ${sala}, 07:00 - 08:00` }).click();
  await expect(page.getByRole("heading", { level: 2, name: br(monday.iso) })).toBeVisible();
  await hydrated(page, js, "#tipo");
  await expect(page.getByRole("switch")).toBeChecked();
  await fillPair(page.locator("main"), "1° Limpeza", "06:00", "05:00");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, T.timeTitle)).toContainText(T.slot1);
  await fillPair(page.locator("main"), "1° Limpeza", "06:00", "07:00");
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, T.edited, "status")).toBeVisible();
  await expect(cards(page, sala).first()).toContainText("06:00 - 07:00");

  // Remove Sala's first revision of that Monday.
  await page.getByRole("link", { name: `Remover ${sala}, 10:00 - 10:30` }).click();
  await expect(page.getByText(T.removeQuestion)).toBeVisible();
  await page.getByRole("button", { name: "Sim" }).click();
  await expect(toast(page, T.deleted, "status")).toBeVisible();
  await expect(cards(page, sala)).toHaveCount(2);
  await expect(page.getByRole("link", { name: `Remover ${sala}, 10:00 - 10:30` })).toHaveCount(0);

  // Deactivate Copa: its bookings leave the calendar.
  await page.goto(`/agendamentos?mes=${mes}&dia=${first.iso}&q=${q}`);
  await page.getByRole("link", { name: `Editar ${copa}, 09:00 - 09:30` }).click();
  await hydrated(page, js, "#tipo");
  await page.getByRole("switch").uncheck();
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(toast(page, T.edited, "status")).toBeVisible();
  await page.goto(`/historico-agenda?mes=${mes}&dia=${first.iso}&q=${encodeURIComponent(copa)}`);
  await expect(page.getByText(T.noResults)).toBeVisible();
});

test("a coordinator registers an agenda in their own branch, the company locked", async ({
  page,
  request,
  signInAs,
  javaScriptEnabled,
}, testInfo) => {
  const room = `${uniquePrefix(testInfo)} Recepção`;
  await createEnvironments(request, [{ name: room, andar: "Térreo", branch: "aldeota" }]);
  const days = daysOf(monthFrom(businessToday(), 1));
  const js = javaScriptEnabled ?? true;

  // Issue 27: the register tab used to bounce a branch-level user back to the list without a word.
  await signInAs("coordenador");
  await page.goto("/agendamentos");
  await page.getByRole("link", { name: "Cadastrar agendamentos" }).click();
  await expect(page).toHaveURL(/\/agendamentos\/cadastrar/);
  await hydrated(page, js, "#empresa");
  await expect(page.getByLabel("Empresa")).toBeDisabled();
  await expect(page.getByLabel("Empresa").locator("option:checked")).toHaveText(branchOption("aldeota"));

  await page.getByLabel("Colaborador").selectOption({ label: ASG });
  await page.getByRole("button", { name: "Criar novo item" }).click();
  const step = itemStep(page, js);
  await step.getByLabel("Ambiente").selectOption({ label: room });
  await step.getByLabel("Segunda").check();
  await fillPair(step, "Limpeza", "07:00", "08:00");
  await step.getByLabel("Vigência inicial").fill(days[0].iso);
  await step.getByLabel("Vigência final").fill(days.at(-1)!.iso);
  await step.getByRole("button", { name: "Cadastrar" }).click();
  await expect(page.getByRole("table", { name: "Itens do agendamento" })).toContainText(room);
  await page.getByRole("button", { name: "Cadastrar", exact: true }).click();
  await expect(toast(page, T.created, "status")).toBeVisible();
  await expect(page).toHaveURL(/\/agendamentos$/);
});

test("screens at 360 and 1280 px: list with cards, register with an item, the item step, edit", async ({
  page,
  request,
  signInAs,
  javaScriptEnabled,
  allowConsoleErrors,
}, testInfo) => {
  test.setTimeout(90_000);
  allowConsoleErrors(/status of 400/);
  const prefix = uniquePrefix(testInfo);
  const mes = monthFrom(businessToday(), 1);
  const days = daysOf(mes);
  const monday = days.find((day) => day.weekday === 1)!;
  await createCalendarAgendas(request, prefix, mes, ["aldeota"]);
  const js = javaScriptEnabled ?? true;
  const project = testInfo.project.name;
  await signInAs("admin");
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/agendamentos?mes=${mes}&dia=${monday.iso}&q=${encodeURIComponent(prefix)}`);
    await expect(page.getByRole("link", { name: /^Editar / }).first()).toBeVisible();
    await screenshot(page, project, `agendamentos-list-${width}`);
    await page
      .getByRole("link", { name: /^Editar / })
      .first()
      .click();
    await expect(page.getByRole("switch")).toBeChecked();
    await screenshot(page, project, `agendamentos-edit-${width}`);

    await page.goto("/agendamentos/cadastrar?empresa=2");
    await hydrated(page, js, "#empresa");
    await page.getByRole("button", { name: "Criar novo item" }).click();
    const step = itemStep(page, js);
    await setCount(step, 2, js);
    await screenshot(page, project, `agendamentos-item-${width}`);
    await itemStep(page, js).getByRole("button", { name: "Cadastrar" }).click();
    await expect(toast(page, T.blankTitle)).toBeVisible();
    await screenshot(page, project, `agendamentos-item-errors-${width}`);
  }
});
