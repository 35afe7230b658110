import { describe, expect, test } from "vitest";

import {
  ALREADY_PRESENT,
  CATALOGUE_KINDS,
  CATALOGUES,
  catalogueTexts,
  CSV_INVALID,
  HEX_COLOR,
  INVALID_LIST,
  isCatalogueKind,
  type CatalogueKind,
} from "../../api/domain/catalogues.ts";

describe("CATALOGUES (spec 000 §7 'Reference data')", () => {
  test("the four kinds, their contract paths and CSV fields", () => {
    expect(CATALOGUE_KINDS).toEqual(["setores", "riscos", "procedimentos", "categorias"]);
    const contract = Object.fromEntries(
      CATALOGUE_KINDS.map((kind) => {
        const { apiPath, csvPath, csvField, hasColor, deleteById, table } = CATALOGUES[kind];
        return [kind, { apiPath, csvPath, csvField, hasColor, deleteById, table }];
      }),
    );
    expect(contract).toEqual({
      setores: {
        apiPath: "/setor",
        csvPath: "/cadastroViaCSV/setor",
        csvField: "csvSetores",
        hasColor: false,
        deleteById: false,
        table: "sectors",
      },
      riscos: {
        apiPath: "/risco",
        csvPath: "/cadastroViaCSV/risco",
        csvField: "csvRiscos",
        hasColor: true,
        deleteById: false,
        table: "risks",
      },
      procedimentos: {
        apiPath: "/procedures",
        csvPath: "/cadastroViaCSV/procedures",
        csvField: "csvProcedures",
        hasColor: false,
        deleteById: true,
        table: "procedures",
      },
      categorias: {
        apiPath: "/categorias",
        csvPath: "/cadastroViaCSV/categorias",
        csvField: "csvCategorias",
        hasColor: false,
        deleteById: false,
        table: "categories",
      },
    });
  });

  test("isCatalogueKind", () => {
    for (const kind of CATALOGUE_KINDS) expect(isCatalogueKind(kind)).toBe(true);
    for (const other of ["setor", "ambientes", "", "Setores"]) expect(isCatalogueKind(other)).toBe(false);
  });

  test("HEX_COLOR is #RRGGBB", () => {
    for (const ok of ["#c62828", "#AABBCC", "#000000"]) expect(HEX_COLOR.test(ok)).toBe(true);
    for (const bad of ["c62828", "#c6282", "#c628280", "#gggggg", " #c62828", ""])
      expect(HEX_COLOR.test(bad)).toBe(false);
  });

  test("the shared messages", () => {
    expect(CSV_INVALID).toBe(
      "É necessário inserir um arquivo .CSV válido. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.",
    );
    expect(ALREADY_PRESENT).toBe("Os itens já estão presentes na filial.");
    expect(INVALID_LIST).toBe("Lista inválida");
  });
});

describe("catalogueTexts: the spec's texts with the gender of each catalogue", () => {
  const expected: Record<CatalogueKind, Partial<ReturnType<typeof catalogueTexts>>> = {
    setores: {
      listTab: "Listar setores",
      registerTab: "Cadastrar setor",
      nameLabel: "Nome do setor",
      empty: "Não existem setores cadastrados ainda.",
      nameRequired: "Nome do setor é obrigatório",
      duplicateTitle: "Setor duplicado",
      duplicateDescription: "Já existe um setor cadastrado com o mesmo nome e empresa",
      created: "Setor cadastrado com sucesso",
      edited: "Setor editado com sucesso",
      deleted: "Setor deletado com sucesso",
      duplicated: "Setores duplicados com sucesso",
      batchCreated: "Setores cadastrados com sucesso",
      createFailed: "Erro ao cadastrar setor",
      editFailed: "Erro ao editar setor",
      deleteFailed: "Erro ao deletar setor",
      duplicateFailed: "Erro ao duplicar os setores",
      batchFailed: "Erro ao cadastrar lista de setores!",
      loadFailed: "Erro ao carregar os setores, por favor atualize a página",
      duplicateDialog: "Duplicar Setores",
    },
    riscos: {
      empty: "Não existem riscos cadastrados ainda.",
      nameRequired: "Nome do risco é obrigatório",
      colorRequired: "Escolha a cor do risco",
      duplicateTitle: "Risco duplicado",
      duplicateDescription: "Já existe um risco cadastrado com o mesmo nome e empresa",
      created: "Risco cadastrado com sucesso",
      duplicated: "Riscos duplicados com sucesso",
      duplicateFailed: "Erro ao duplicar os riscos",
      loadFailed: "Erro ao carregar os riscos, por favor atualize a página",
      duplicateDialog: "Duplicar Riscos",
    },
    procedimentos: {
      empty: "Não existem procedimentos cadastrados ainda.",
      nameRequired: "Nome do procedimento é obrigatório",
      duplicateTitle: "Procedimento duplicado",
      duplicateDescription: "Já existe um procedimento cadastrado com o mesmo nome e empresa",
      created: "Procedimento cadastrado com sucesso",
      duplicated: "Procedimentos duplicados com sucesso",
      duplicateFailed: "Erro ao duplicar os procedimentos",
      duplicateDialog: "Duplicar Procedimentos",
    },
    categorias: {
      listTab: "Listar categorias",
      registerTab: "Cadastrar categoria",
      nameLabel: "Nome da categoria",
      empty: "Não existem categorias cadastradas ainda.",
      nameRequired: "Nome da categoria é obrigatório",
      duplicateTitle: "Categoria duplicada",
      duplicateDescription: "Já existe uma categoria cadastrada com o mesmo nome e empresa",
      created: "Categoria cadastrada com sucesso",
      edited: "Categoria editada com sucesso",
      deleted: "Categoria deletada com sucesso",
      duplicated: "Categorias duplicadas com sucesso",
      batchCreated: "Categorias cadastradas com sucesso",
      createFailed: "Erro ao cadastrar categoria",
      duplicateFailed: "Erro ao duplicar as categorias",
      batchFailed: "Erro ao cadastrar lista de categorias!",
      loadFailed: "Erro ao carregar as categorias, por favor atualize a página",
      duplicateDialog: "Duplicar Categorias",
      helpViewer: "Nesta página você pode visualizar as categorias da sua filial.",
    },
  };

  test.each(CATALOGUE_KINDS)("%s", (kind) => {
    expect(catalogueTexts(kind)).toMatchObject(expected[kind]);
  });

  test("no masculine form slips into the feminine catalogue", () => {
    const texts = Object.values(catalogueTexts("categorias")).join("\n");
    expect(texts).not.toMatch(
      /\b(cadastrados?|duplicados?|editado|deletado|um categoria|os categorias|do categoria)\b/,
    );
  });
});
