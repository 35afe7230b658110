/**
 * What differs between the four catalogues (api/domain/catalogues.ts is the table of differences), checked for every
 * kind here so the browser tests can drive one kind only (tests/e2e/catalogues*.spec.ts: sectors, and risks where
 * the colour is the point). The texts are written out, not derived, so a changed word or gender fails a test:
 * they are the texts the browser tests used to check on screen for each kind (spec 000 §2, §5, §8).
 * The API side of the same differences: tests/api/catalogue-kinds.test.ts.
 */
import { describe, expect, test } from "vitest";

import { validateCatalogueCsv } from "../../api/domain/catalogue-csv.ts";
import {
  CATALOGUE_KINDS,
  CATALOGUES,
  catalogueTexts,
  csvHeader,
  type CatalogueKind,
} from "../../api/domain/catalogues.ts";
import { catalogueItemSchema } from "../../app/lib/schemas.ts";

/** One row per kind: every text a catalogue screen shows that names the kind. */
const SCREENS: Record<
  CatalogueKind,
  {
    /** h1, the Excel sheet's name */
    titlePlural: string;
    /** the name column's header, in the list and in the Excel export */
    column: string;
    hasColor: boolean;
    /** the CSV template's and the import's header */
    csvHeader: string;
    /** the list's search box, built from the title: `Buscar ${title.toLowerCase()}` */
    searchLabel: string;
    /** the edit page's heading, before '(branch)': `Editar ${title.toLowerCase()}` */
    editHeading: string;
    texts: Partial<ReturnType<typeof catalogueTexts>>;
  }
> = {
  setores: {
    titlePlural: "Setores",
    column: "Setor",
    hasColor: false,
    csvHeader: "nome",
    searchLabel: "Buscar setor",
    editHeading: "Editar setor",
    texts: {
      listTab: "Listar setores",
      registerTab: "Cadastrar setor",
      nameLabel: "Nome do setor",
      nameRequired: "Nome do setor é obrigatório",
      created: "Setor cadastrado com sucesso",
      edited: "Setor editado com sucesso",
      deleted: "Setor deletado com sucesso",
      duplicated: "Setores duplicados com sucesso",
      batchCreated: "Setores cadastrados com sucesso",
      batchFailed: "Erro ao cadastrar lista de setores!",
      duplicateTitle: "Setor duplicado",
      duplicateDescription: "Já existe um setor cadastrado com o mesmo nome e empresa",
      duplicateFailed: "Erro ao duplicar os setores",
      duplicateDialog: "Duplicar Setores",
      duplicateButton: "Duplicar setores",
      empty: "Não existem setores cadastrados ainda.",
      helpEditor: "Nesta página você pode visualizar, cadastrar e editar os setores da empresa e de suas filiais.",
      helpViewer: "Nesta página você pode visualizar os setores da sua filial.",
    },
  },
  riscos: {
    titlePlural: "Riscos",
    column: "Risco",
    hasColor: true,
    csvHeader: "nome;cor",
    searchLabel: "Buscar risco",
    editHeading: "Editar risco",
    texts: {
      listTab: "Listar riscos",
      registerTab: "Cadastrar risco",
      nameLabel: "Nome do risco",
      nameRequired: "Nome do risco é obrigatório",
      colorRequired: "Escolha a cor do risco",
      created: "Risco cadastrado com sucesso",
      edited: "Risco editado com sucesso",
      deleted: "Risco deletado com sucesso",
      duplicated: "Riscos duplicados com sucesso",
      batchCreated: "Riscos cadastrados com sucesso",
      batchFailed: "Erro ao cadastrar lista de riscos!",
      duplicateTitle: "Risco duplicado",
      duplicateDescription: "Já existe um risco cadastrado com o mesmo nome e empresa",
      duplicateFailed: "Erro ao duplicar os riscos",
      duplicateDialog: "Duplicar Riscos",
      duplicateButton: "Duplicar riscos",
      empty: "Não existem riscos cadastrados ainda.",
    },
  },
  procedimentos: {
    titlePlural: "Procedimentos",
    column: "Procedimento",
    hasColor: false,
    csvHeader: "nome",
    searchLabel: "Buscar procedimento",
    editHeading: "Editar procedimento",
    texts: {
      listTab: "Listar procedimentos",
      registerTab: "Cadastrar procedimento",
      nameLabel: "Nome do procedimento",
      nameRequired: "Nome do procedimento é obrigatório",
      created: "Procedimento cadastrado com sucesso",
      edited: "Procedimento editado com sucesso",
      deleted: "Procedimento deletado com sucesso",
      duplicated: "Procedimentos duplicados com sucesso",
      batchCreated: "Procedimentos cadastrados com sucesso",
      batchFailed: "Erro ao cadastrar lista de procedimentos!",
      duplicateTitle: "Procedimento duplicado",
      duplicateDescription: "Já existe um procedimento cadastrado com o mesmo nome e empresa",
      duplicateFailed: "Erro ao duplicar os procedimentos",
      duplicateDialog: "Duplicar Procedimentos",
      duplicateButton: "Duplicar procedimentos",
      empty: "Não existem procedimentos cadastrados ainda.",
    },
  },
  categorias: {
    titlePlural: "Categorias",
    column: "Categoria",
    hasColor: false,
    csvHeader: "nome",
    searchLabel: "Buscar categoria",
    editHeading: "Editar categoria",
    texts: {
      listTab: "Listar categorias",
      registerTab: "Cadastrar categoria",
      nameLabel: "Nome da categoria",
      nameRequired: "Nome da categoria é obrigatório",
      created: "Categoria cadastrada com sucesso",
      edited: "Categoria editada com sucesso",
      deleted: "Categoria deletada com sucesso",
      duplicated: "Categorias duplicadas com sucesso",
      batchCreated: "Categorias cadastradas com sucesso",
      batchFailed: "Erro ao cadastrar lista de categorias!",
      duplicateTitle: "Categoria duplicada",
      duplicateDescription: "Já existe uma categoria cadastrada com o mesmo nome e empresa",
      duplicateFailed: "Erro ao duplicar as categorias",
      duplicateDialog: "Duplicar Categorias",
      duplicateButton: "Duplicar categorias",
      empty: "Não existem categorias cadastradas ainda.",
      helpEditor: "Nesta página você pode visualizar, cadastrar e editar as categorias da empresa e de suas filiais.",
    },
  },
};

describe.each(CATALOGUE_KINDS)("the %s screens' texts", (kind) => {
  const expected = SCREENS[kind];
  const c = CATALOGUES[kind];

  test("title, name column, colour column, CSV header", () => {
    expect(c.titlePlural).toBe(expected.titlePlural);
    expect(c.title).toBe(expected.column);
    expect(c.hasColor).toBe(expected.hasColor);
    expect(csvHeader(kind).join(";")).toBe(expected.csvHeader);
  });

  test("search label and edit heading (the list and edit pages build them from the title)", () => {
    expect(`Buscar ${c.title.toLowerCase()}`).toBe(expected.searchLabel);
    expect(`Editar ${c.title.toLowerCase()}`).toBe(expected.editHeading);
  });

  test("tabs, labels, toasts, dialog and empty-list texts", () => {
    expect(catalogueTexts(kind)).toMatchObject(expected.texts);
  });
});

describe("gender: only categories are feminine", () => {
  test("the feminine flag", () => {
    expect(Object.fromEntries(CATALOGUE_KINDS.map((kind) => [kind, CATALOGUES[kind].feminine]))).toEqual({
      setores: false,
      riscos: false,
      procedimentos: false,
      categorias: true,
    });
  });

  test.each(CATALOGUE_KINDS.filter((kind) => !CATALOGUES[kind].feminine))("no feminine form slips into %s", (kind) => {
    const texts = Object.entries(catalogueTexts(kind))
      .filter(([key]) => key !== "colorRequired") // 'a cor do risco' is about the colour
      .map(([, text]) => text)
      .join("\n");
    expect(texts).not.toMatch(
      /\b(cadastradas?|duplicadas?|editada|deletada|uma|as (setores|riscos|procedimentos)|da (setor|risco|procedimento))\b/,
    );
  });
});

describe("the delete rule", () => {
  test("the web app removes procedures by id (DELETE /procedures/{id}), the others with the item as body", () => {
    expect(Object.fromEntries(CATALOGUE_KINDS.map((kind) => [kind, CATALOGUES[kind].deleteById]))).toEqual({
      setores: false,
      riscos: false,
      procedimentos: true,
      categorias: false,
    });
  });
});

describe.each(CATALOGUE_KINDS)("the %s item form (catalogueItemSchema)", (kind) => {
  const schema = catalogueItemSchema(kind, true);
  const issues = (value: Record<string, unknown>) => {
    const result = schema.safeParse(value);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));
  };

  test("a blank name names the kind, with its gender", () => {
    expect(issues({ name: "  ", color: "#c62828", companyId: "1" }).name).toBe(SCREENS[kind].texts.nameRequired);
  });

  test(
    CATALOGUES[kind].hasColor
      ? "the colour is required as #rrggbb: 'Escolha a cor do risco'"
      : "no colour field: anything sent is not checked",
    () => {
      const bad = issues({ name: "Sala", color: "vermelho", companyId: "1" });
      if (CATALOGUES[kind].hasColor) {
        expect(bad.color).toBe("Escolha a cor do risco");
        expect(issues({ name: "Sala", companyId: "1" }).color).toBe("Escolha a cor do risco");
        expect(issues({ name: "Sala", color: "#1e88e5", companyId: "1" })).toEqual({});
      } else {
        expect(bad).toEqual({});
        expect(issues({ name: "Sala", companyId: "1" })).toEqual({});
      }
    },
  );
});

describe.each(CATALOGUE_KINDS)("the %s CSV import's line errors", (kind) => {
  const header = csvHeader(kind);
  // A second cell keeps a row without a name from being a blank row (blank rows are skipped).
  const row = (name: string) => [name, CATALOGUES[kind].hasColor ? "#c62828" : "x"];

  test("an empty name: 'o nome do …' / 'o nome da categoria'", () => {
    const emptyName = {
      setores: "Linha 3: o nome do setor está vazio.",
      riscos: "Linha 3: o nome do risco está vazio.",
      procedimentos: "Linha 3: o nome do procedimento está vazio.",
      categorias: "Linha 3: o nome da categoria está vazio.",
    }[kind];
    expect(validateCatalogueCsv(kind, { header, rows: [row("Sala"), row(" ")] })).toEqual({ errors: [emptyName] });
  });

  test(
    CATALOGUES[kind].hasColor
      ? "risks: 'nome;cor', a colour on every line (kept in lower case), a bad one named by its line"
      : "'nome' only: a colour column is ignored",
    () => {
      if (CATALOGUES[kind].hasColor) {
        expect(validateCatalogueCsv(kind, { header: ["Nome", "Cor"], rows: [["Sala", "#AD1457"]] })).toEqual({
          rows: [{ line: 2, name: "Sala", color: "#ad1457" }],
        });
        expect(validateCatalogueCsv(kind, { header: ["nome"], rows: [["Sala"]] })).toEqual({
          errors: ["Cabeçalho inválido: a primeira linha deve ser 'nome;cor', como no arquivo modelo."],
        });
        expect(
          validateCatalogueCsv(kind, {
            header: ["nome", "cor"],
            rows: [
              ["Bom", "#111111"],
              ["Repetido", "vermelho"],
              ["Outro", "#222222"],
              ["outro", "#333333"],
            ],
          }),
        ).toEqual({
          errors: [
            "Linha 3: a cor 'vermelho' é inválida; use o formato #RRGGBB (por exemplo #c62828).",
            "Linha 5: 'outro' está repetido no arquivo (linha 4).",
          ],
        });
      } else {
        expect(validateCatalogueCsv(kind, { header: ["nome", "cor"], rows: [["Sala", "vermelho"]] })).toEqual({
          rows: [{ line: 2, name: "Sala" }],
        });
      }
    },
  );
});
