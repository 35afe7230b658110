/**
 * The pure environment rules (api/domain/environments.ts): procedure selection (spec 000 §4), the 'Filtrar por'
 * fields and sortable columns (§2), the field rules and messages (§5), duplicate procedure names collapsed (§3).
 */
import { describe, expect, test } from "vitest";
import * as z from "zod/mini";

import {
  checkProcedureLists,
  collapseProcedures,
  DEFAULT_SEARCH_FIELDS,
  defaultsForCompany,
  ENVIRONMENT_SEARCH_FIELDS,
  ENVIRONMENT_SORTS,
  ENVIRONMENT_TEXTS as T,
  environmentFields,
  environmentSortOf,
  formatSearchFields,
  isAllOptional,
  joinNames,
  lacksCatalogues,
  markAllOptional,
  parseSearchFields,
  pickProcedure,
  procedureConflicts,
  procedureListIssues,
  setProcedures,
  splitProcedures,
} from "../../api/domain/environments.ts";

describe("procedure selection: a procedure is never both mandatory and optional", () => {
  const empty = { mandatory: [], optional: [] };

  test("picking in one list removes it from the other", () => {
    let selection = pickProcedure(empty, "mandatory", 1);
    selection = pickProcedure(selection, "mandatory", 2);
    expect(selection).toEqual({ mandatory: [1, 2], optional: [] });
    selection = pickProcedure(selection, "optional", 2);
    expect(selection).toEqual({ mandatory: [1], optional: [2] });
    selection = pickProcedure(selection, "mandatory", 2);
    expect(selection).toEqual({ mandatory: [1, 2], optional: [] });
  });

  test("picking twice keeps it once; unpicking removes it from that list only", () => {
    const selection = pickProcedure(pickProcedure(empty, "optional", 3), "optional", 3);
    expect(selection).toEqual({ mandatory: [], optional: [3] });
    expect(pickProcedure({ mandatory: [1], optional: [3] }, "optional", 3, false)).toEqual({
      mandatory: [1],
      optional: [],
    });
    expect(pickProcedure({ mandatory: [1], optional: [3] }, "optional", 1, false)).toEqual({
      mandatory: [1],
      optional: [3],
    });
  });

  test("a multi-select's new value takes its ids out of the other list", () => {
    expect(setProcedures({ mandatory: [1, 2], optional: [3, 4] }, "optional", [2, 4, 5, 5])).toEqual({
      mandatory: [1],
      optional: [2, 4, 5],
    });
    expect(setProcedures({ mandatory: [1, 2], optional: [3, 4] }, "mandatory", [3])).toEqual({
      mandatory: [3],
      optional: [4],
    });
  });

  test("'mark all' optional selects every procedure of the company and clears the mandatory ones", () => {
    const all = [10, 11, 12];
    const marked = markAllOptional({ mandatory: [10], optional: [12] }, all);
    expect(marked).toEqual({ mandatory: [], optional: [10, 11, 12] });
    expect(isAllOptional(marked, all)).toBe(true);
    expect(markAllOptional(marked, all, false)).toEqual({ mandatory: [], optional: [] });
    expect(isAllOptional({ mandatory: [10], optional: [11, 12] }, all)).toBe(false);
    expect(isAllOptional({ mandatory: [], optional: [] }, [])).toBe(false);
  });

  test("conflicts are the ids in both lists", () => {
    expect(procedureConflicts([1, 2, 3, 3], [3, 4, 1])).toEqual([1, 3]);
    expect(procedureConflicts([1], [2])).toEqual([]);
  });

  test("a company change: first category and sector of that company, risks and procedures cleared", () => {
    expect(defaultsForCompany({ categoryIds: [7, 8], sectorIds: [3] })).toEqual({
      categoriaId: 7,
      setorId: 3,
      riscos: [],
      procedures: [],
      proceduresNotMandatory: [],
    });
    expect(defaultsForCompany({ categoryIds: [], sectorIds: [] })).toMatchObject({ categoriaId: null, setorId: null });
    expect(lacksCatalogues({ categories: 0, sectors: 2 })).toBe(true);
    expect(lacksCatalogues({ categories: 2, sectors: 0 })).toBe(true);
    expect(lacksCatalogues({ categories: 1, sectors: 1 })).toBe(false);
  });
});

describe("duplicate procedure names collapsed in the list form", () => {
  test("one entry per name (case, accents and spaces ignored), first seen kept, mandatory if any is", () => {
    const collapsed = collapseProcedures([
      { name: "Limpar piso", mandatory: false },
      { name: "Repor sabão", mandatory: false },
      { name: "LIMPAR  PISO", mandatory: true },
      { name: "repor sabao", mandatory: false },
    ]);
    expect(collapsed).toEqual([
      { name: "Limpar piso", mandatory: true },
      { name: "Repor sabão", mandatory: false },
    ]);
  });

  test("split into the two columns and joined by comma", () => {
    const split = splitProcedures([
      { name: "A", mandatory: true },
      { name: "B", mandatory: false },
      { name: "a", mandatory: false },
      { name: "C", mandatory: false },
    ]);
    expect(split).toEqual({ mandatory: ["A"], optional: ["B", "C"] });
    expect(joinNames(split.optional)).toBe("B, C");
  });
});

describe("the 'Filtrar por' fields and the sortable columns", () => {
  test("the spec's fields, in order, Ambiente by default", () => {
    expect(ENVIRONMENT_SEARCH_FIELDS.map((field) => field.label)).toEqual([
      "Empresa",
      "Ambiente",
      "Categoria",
      "Setor",
      "Andar",
      "Risco",
      "Procedimento",
    ]);
    expect(DEFAULT_SEARCH_FIELDS).toEqual(["ambiente"]);
  });

  test("parsed from text or repeated values: known keys once, in the modal's order; none is the default", () => {
    expect(parseSearchFields("setor,ambiente,setor")).toEqual(["ambiente", "setor"]);
    expect(parseSearchFields(["Risco", "empresa, andar"])).toEqual(["empresa", "andar", "risco"]);
    expect(parseSearchFields("nada")).toEqual(["ambiente"]);
    expect(parseSearchFields("")).toEqual(["ambiente"]);
    expect(parseSearchFields(undefined)).toEqual(["ambiente"]);
    expect(parseSearchFields(null)).toEqual(["ambiente"]);
  });

  test("formatted for the API: empty for the default", () => {
    expect(formatSearchFields(["ambiente"])).toBe("");
    expect(formatSearchFields([])).toBe("");
    expect(formatSearchFields(["procedimento", "empresa"])).toBe("empresa,procedimento");
  });

  test("the list's columns sort; unknown keys are the name", () => {
    expect(ENVIRONMENT_SORTS.map((sort) => sort.label)).toEqual([
      "Empresa",
      "Ambiente",
      "Categoria",
      "Setor",
      "Andar",
      "Riscos",
      "Procedimentos Obrigatórios",
      "Procedimentos Opcionais",
    ]);
    expect(environmentSortOf("setor")).toBe("setor");
    expect(environmentSortOf("nome")).toBe("ambiente");
    expect(environmentSortOf(undefined)).toBe("ambiente");
  });
});

describe("field rules (the form's and the API's)", () => {
  const Schema = z.object(environmentFields).check(z.superRefine(checkProcedureLists));
  const valid = {
    name: "  Sala   1 ",
    andar: "Térreo",
    categoriaId: "3",
    setorId: 4,
    riscos: ["5", "6"],
    procedures: [7],
    proceduresNotMandatory: "8",
  };
  const errors = (value: unknown) => {
    const result = Schema.safeParse(value);
    if (result.success) return {};
    const found: Record<string, string[]> = {};
    for (const issue of result.error.issues) (found[issue.path.join(".")] ??= []).push(issue.message);
    return found;
  };

  test("text and numbers are read alike; names trimmed and collapsed", () => {
    expect(Schema.parse(valid)).toEqual({
      name: "Sala 1",
      andar: "Térreo",
      categoriaId: 3,
      setorId: 4,
      riscos: [5, 6],
      procedures: [7],
      proceduresNotMandatory: [8],
    });
  });

  test("the spec's messages", () => {
    expect(errors({ ...valid, name: " ", andar: "" })).toEqual({ name: [T.nameRequired], andar: [T.andarRequired] });
    expect(errors({ ...valid, riscos: [] })).toEqual({ riscos: [T.risksRequired] });
    expect(errors({ ...valid, riscos: undefined })).toEqual({ riscos: [T.risksRequired] });
    expect(errors({ ...valid, procedures: [], proceduresNotMandatory: "" })).toEqual({
      procedures: [T.proceduresRequired],
    });
    expect(errors({ ...valid, procedures: [8] })).toEqual({ proceduresNotMandatory: [T.procedureConflict] });
    expect(errors({ ...valid, categoriaId: "" })).toEqual({ categoriaId: [T.categoryRequired] });
    expect(errors({ ...valid, setorId: undefined })).toEqual({ setorId: [T.sectorRequired] });
    expect(T).toMatchObject({
      nameRequired: "Nome do ambiente é obrigatório",
      andarRequired: "Nome do andar é obrigatório",
      risksRequired: "Favor selecionar o(s) risco(s) do ambiente",
      proceduresRequired: "Favor selecionar o(s) procedimento(s) do ambiente",
      duplicateTitle: "Ambiente duplicado",
      duplicateDescription: "Já existe um ambiente cadastrado com o mesmo nome e empresa",
      hasHistory: "Ambiente já possui historico e não pode ser deletado",
      missingCataloguesTitle: "Cadastros não realizados",
      missingCataloguesDescription:
        "Favor cadastrar ao menos um procedimento, risco, setor e categoria antes de cadastrar um ambiente",
      blankTitle: "Campos em branco",
      blankDescription: "Existem campos obrigatórios não preenchidos.",
      empty: "Não existem ambientes cadastrados ainda.",
      loadFailed: "Erro ao carregar os ambientes, por favor atualize a página.",
      created: "Ambiente cadastrado com sucesso",
      edited: "Ambiente editado com sucesso",
      deleted: "Ambiente deletado com sucesso",
      createFailed: "Erro ao cadastrar o ambiente",
      editFailed: "Erro ao editar ambiente",
      deleteFailed: "Erro ao deletar ambiente",
    });
  });

  test("ids must be 32-bit positive integers", () => {
    for (const bad of ["abc", 0, -1, 1.5, 2147483648, "1e3"]) {
      expect(Object.keys(errors({ ...valid, riscos: [bad] })), String(bad)).toEqual(["riscos.0"]);
    }
    expect(errors({ ...valid, categoriaId: 2147483648 })).toHaveProperty("categoriaId");
  });

  test("procedureListIssues: the same rules as data", () => {
    expect(procedureListIssues({ procedures: [], proceduresNotMandatory: [] })).toEqual([
      { path: ["procedures"], message: T.proceduresRequired },
    ]);
    expect(procedureListIssues({ procedures: [1], proceduresNotMandatory: [1] })).toEqual([
      { path: ["proceduresNotMandatory"], message: T.procedureConflict },
    ]);
    expect(procedureListIssues({ procedures: [], proceduresNotMandatory: [1] })).toEqual([]);
  });
});
