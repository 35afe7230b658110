import { describe, expect, test } from "vitest";

import { menuFor, PAGES, type MenuEntry } from "../../app/lib/navigation.ts";

const menu = (roleId: number | null, hasMasterCpf = true) => menuFor({ roleId, coordenador: null, hasMasterCpf });
const labels = (entries: MenuEntry[]) => entries.map((entry) => entry.label);
const childrenOf = (entries: MenuEntry[], label: string) =>
  entries.find((entry) => entry.label === label)?.children?.map((child) => child.label);
const allLinks = (entries: MenuEntry[]) =>
  entries.flatMap((entry) => [...(entry.to ? [entry.to] : []), ...(entry.children ?? []).map((child) => child.to)]);

const ALL_REPORTS = [
  "Colaboradores",
  "Ambientes",
  "Tarefas incompletas",
  "Agenda",
  "Atividades",
  "Imagens",
  "Relatório do cliente",
];
const REGISTERS = ["Procedimentos", "Riscos", "Setores", "Categorias", "Ambientes", "Agendamento"];

describe("menuFor (spec 000 §6)", () => {
  test("roleId 1 sees everything, with Empresa matriz and Filiais first in Cadastros", () => {
    const entries = menu(1);
    expect(labels(entries)).toEqual([
      "Início",
      "Ocorrências",
      "Inspeções",
      "Cadastros",
      "Usuários",
      "Relatórios",
      "Auditoria",
      "FAQ",
    ]);
    expect(childrenOf(entries, "Cadastros")).toEqual(["Empresa matriz", "Filiais", ...REGISTERS]);
    expect(childrenOf(entries, "Usuários")).toEqual(["Pré-cadastro", "Listagem"]);
    expect(childrenOf(entries, "Relatórios")).toEqual(ALL_REPORTS);
  });

  test("roleId 2: Filiais but no Empresa matriz", () => {
    const entries = menu(2);
    expect(labels(entries)).toEqual([
      "Início",
      "Ocorrências",
      "Inspeções",
      "Cadastros",
      "Usuários",
      "Relatórios",
      "Auditoria",
      "FAQ",
    ]);
    expect(childrenOf(entries, "Cadastros")).toEqual(["Filiais", ...REGISTERS]);
  });

  test("roleId 3: Cadastros without Filiais, FAQ shown", () => {
    const entries = menu(3);
    expect(labels(entries)).toEqual([
      "Início",
      "Ocorrências",
      "Inspeções",
      "Cadastros",
      "Usuários",
      "Relatórios",
      "Auditoria",
      "FAQ",
    ]);
    expect(childrenOf(entries, "Cadastros")).toEqual(REGISTERS);
  });

  test("no role: Cadastros and Usuários, but no FAQ", () => {
    const entries = menu(null);
    expect(labels(entries)).toEqual([
      "Início",
      "Ocorrências",
      "Inspeções",
      "Cadastros",
      "Usuários",
      "Relatórios",
      "Auditoria",
    ]);
    expect(childrenOf(entries, "Cadastros")).toEqual(REGISTERS);
  });

  test.each([
    [4, ["Início", "Ocorrências", "Inspeções", "Relatórios", "Auditoria"]],
    // Field staff handle incidents through the execution API, not the office's list (issue 28).
    [5, ["Início", "Relatórios", "Auditoria"]],
  ])("roleId %s: no Cadastros, Usuários or FAQ", (roleId, expected) => {
    const entries = menu(roleId);
    expect(labels(entries)).toEqual(expected);
    expect(childrenOf(entries, "Relatórios")).toEqual(ALL_REPORTS);
  });

  test("roleId 7 (client): no Início, no Cadastros, Relatórios only Atividades, Imagens and the client report", () => {
    const entries = menu(7);
    expect(labels(entries)).toEqual(["Ocorrências", "Inspeções", "Relatórios", "Auditoria"]);
    expect(entries.find((entry) => entry.label === "Relatórios")?.children).toEqual([
      { label: "Atividades", to: "/historico-tarefas" },
      { label: "Imagens", to: "/imagens-tarefas" },
      { label: "Relatório do cliente", to: "/relatorio-cliente" },
    ]);
  });

  test("Empresa matriz only for roleId 1; Filiais for roles 1 and 2; FAQ for roles 1 to 3", () => {
    const roles = [1, 2, 3, 4, 5, 7, null];
    const holders = (to: string) => roles.filter((roleId) => allLinks(menu(roleId)).includes(to as never));
    expect(holders("/empresa-principal")).toEqual([1]);
    expect(holders("/filiais")).toEqual([1, 2]);
    expect(holders("/faq")).toEqual([1, 2, 3]);
    expect(holders("/dashboard")).toEqual([1, 2, 3, 4, 5, null]);
    expect(holders("/auditoria")).toEqual(roles);
  });

  test("Filiais without a master CPF is listed with the 'Permissão negada!' toast instead of a page", () => {
    const filiais = (hasMasterCpf: boolean) =>
      menu(2, hasMasterCpf)
        .find((entry) => entry.label === "Cadastros")
        ?.children?.find((child) => child.label === "Filiais");
    expect(filiais(false)).toMatchObject({ to: "/filiais", deniedToast: true });
    expect(filiais(true)).toMatchObject({ to: "/filiais", deniedToast: false });
  });

  test("every link points at a page of the route table", () => {
    for (const roleId of [1, 2, 3, 4, 5, 7, null]) {
      for (const to of allLinks(menu(roleId))) expect(Object.keys(PAGES), to).toContain(to);
    }
  });
});
