/**
 * The web screens of /ambientes, their pure parts: the list's URL state ('Filtrar por' fields kept in sort and pager
 * links), the form schema (the spec's messages, all at once; the exclusivity rule) and the list row's joined columns.
 */
import { describe, expect, test } from "vitest";

import { DEFAULT_ENVIRONMENT_SORT, ENVIRONMENT_TEXTS as T } from "../../api/domain/environments.ts";
import { environmentFormSchema } from "../../app/environments/form-schema.ts";
import { environmentRow } from "../../app/environments/list.server.ts";
import { readEnvironmentListParams } from "../../app/environments/params.ts";
import { DEFAULT_SORT } from "../../app/environments/sort.ts";
import { listHref } from "../../app/lib/list-params.ts";

describe("the list's URL state", () => {
  test("the default sort is the API's", () => {
    expect(DEFAULT_SORT).toBe(DEFAULT_ENVIRONMENT_SORT);
  });

  test("no campos: the default field (Ambiente), nothing extra in links", () => {
    const state = readEnvironmentListParams("http://x/ambientes?q=sala");
    expect(state.campos).toEqual(["ambiente"]);
    expect(state.fields).toBe("");
    expect(state.params).toMatchObject({ q: "sala", ordem: "ambiente", dir: "asc", pagina: 1, extra: [] });
    // Ticking only Ambiente is the default too.
    expect(readEnvironmentListParams("http://x/ambientes?campos=ambiente").params.extra).toEqual([]);
  });

  test("an unknown sort key is the default", () => {
    expect(readEnvironmentListParams(`http://x/ambientes?ordem=${"x".repeat(60)}`).params.ordem).toBe("ambiente");
    expect(readEnvironmentListParams("http://x/ambientes?ordem=opcionais&dir=desc").params).toMatchObject({
      ordem: "opcionais",
      dir: "desc",
    });
  });

  test("chosen fields: known ones, in the filter's order, each once; sort and pager links keep them", () => {
    const state = readEnvironmentListParams(
      "http://x/ambientes?q=2&campos=andar&campos=setor&campos=andar&campos=senha&ordem=riscos",
    );
    expect(state.campos).toEqual(["setor", "andar"]);
    expect(state.fields).toBe("setor,andar");
    const href = listHref("/ambientes", state.params, { pagina: 3 }, DEFAULT_SORT);
    expect(href).toBe("/ambientes?q=2&ordem=riscos&pagina=3&campos=setor&campos=andar");
    expect(readEnvironmentListParams(`http://x${href}`).campos).toEqual(["setor", "andar"]);
  });
});

describe("the register and edit forms' schema", () => {
  const valid = {
    companyId: "2",
    name: "  Sala   de espera ",
    andar: "Térreo",
    categoriaId: "4",
    setorId: "5",
    riscos: ["1", "2"],
    procedures: "7",
    proceduresNotMandatory: ["8"],
  };
  const issues = (value: Record<string, unknown>, withCompany = true) => {
    const result = withCompany
      ? environmentFormSchema(true).safeParse(value)
      : environmentFormSchema(false).safeParse(value);
    if (result.success) return {};
    const byField: Record<string, string[]> = {};
    for (const issue of result.error.issues) (byField[String(issue.path[0])] ??= []).push(issue.message);
    return byField;
  };

  test("a valid form: names trimmed and collapsed, ids as numbers, one value or several", () => {
    const result = environmentFormSchema(true).safeParse(valid);
    expect(result.success && result.data).toEqual({
      companyId: 2,
      name: "Sala de espera",
      andar: "Térreo",
      categoriaId: 4,
      setorId: 5,
      riscos: [1, 2],
      procedures: [7],
      proceduresNotMandatory: [8],
    });
  });

  test("an empty form gives every message at once, the procedures' rule included", () => {
    expect(issues({ companyId: "2", categoriaId: "4", setorId: "5" })).toEqual({
      name: [T.nameRequired],
      andar: [T.andarRequired],
      riscos: [T.risksRequired],
      procedures: [T.proceduresRequired],
    });
  });

  test("a procedure in both lists is refused on the optional list; the edit form has no company", () => {
    expect(issues({ ...valid, proceduresNotMandatory: ["7", "8"] })).toEqual({
      proceduresNotMandatory: [T.procedureConflict],
    });
    const { companyId: _company, ...edit } = valid;
    expect(issues(edit, false)).toEqual({});
    expect(issues({ ...valid, companyId: "" })).toHaveProperty("companyId");
  });

  test("ids beyond a PostgreSQL integer are refused", () => {
    expect(issues({ ...valid, categoriaId: "2147483648" })).toHaveProperty("categoriaId");
    expect(issues({ ...valid, riscos: ["99999999999"] })).toHaveProperty("riscos");
  });
});

test("a list row: risks and each procedure list joined by commas, duplicate names collapsed", () => {
  expect(
    environmentRow({
      ID: 9,
      AMBIENTE_NOME: "Copa",
      EMPRESA: "Filial Aldeota",
      companyId: 2,
      EMPRESA_ID: 2,
      CATEGORIA: "Copa",
      SETOR: "Copa e Cozinha",
      ANDAR: "Térreo",
      RISCOS: ["Biológico", "Químico"],
      PROCEDIMENTOS: [
        { name: "Limpar piso", mandatory: true },
        { name: "Recolher lixo", mandatory: true },
        { name: "limpar  PISO", mandatory: false },
        { name: "Limpar vidros", mandatory: false },
      ],
      qrCodigo: "0123456789abcdef",
    }),
  ).toEqual({
    id: 9,
    name: "Copa",
    empresa: "Filial Aldeota",
    categoria: "Copa",
    setor: "Copa e Cozinha",
    andar: "Térreo",
    riscos: "Biológico, Químico",
    obrigatorios: "Limpar piso, Recolher lixo",
    opcionais: "Limpar vidros",
  });
});
