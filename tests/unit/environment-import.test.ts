/**
 * The environment importer's pure rules (api/domain/environment-import.ts; docs/environments.md 'Importing
 * environments'): the header, list splitting, name matching without case or accents, and every row message letter
 * for letter.
 */
import { describe, expect, test } from "vitest";

import {
  capErrors,
  foldImportName,
  IMPORT_COLUMNS,
  IMPORT_HEADER,
  IMPORT_INSTRUCTIONS,
  IMPORT_MAX_ROWS,
  importColumns,
  importedMessage,
  NameIndex,
  resolveNames,
  splitNames,
  validateEnvironmentImport,
  type BranchCatalogues,
  type ImportTable,
} from "../../api/domain/environment-import.ts";

const CATALOGUES: BranchCatalogues = {
  categories: [
    { id: 1, name: "Banheiro" },
    { id: 2, name: "Sala" },
    { id: 3, name: "Copa; cozinha" },
  ],
  sectors: [
    { id: 11, name: "Recepção" },
    { id: 12, name: "UTI" },
  ],
  risks: [
    { id: 21, name: "Biológico" },
    { id: 22, name: "Químico" },
    { id: 23, name: "Físico" },
  ],
  procedures: [
    { id: 31, name: "Limpar piso" },
    { id: 32, name: "Recolher lixo" },
    { id: 33, name: "Repor papel toalha" },
    { id: 34, name: "Copa, cozinha e pias" },
  ],
};

const HEADER = [...IMPORT_HEADER];
const good = (name: string) => [name, "Banheiro", "Recepção", "Térreo", "Biológico", "Limpar piso", ""];

/** A table under the template's header (line 1), its rows on lines 2, 3, ... */
function table(rows: string[][], header = HEADER): ImportTable {
  return { header, headerLine: 1, rows: rows.map((cells, index) => ({ line: index + 2, cells })) };
}

const check = (rows: string[][], existing: Record<string, string> = {}, header = HEADER) =>
  validateEnvironmentImport(table(rows, header), CATALOGUES, new Map(Object.entries(existing)));

const errorsOf = (rows: string[][], existing: Record<string, string> = {}) => {
  const result = check(rows, existing);
  if (!("errors" in result)) throw new Error(`expected errors, got ${JSON.stringify(result)}`);
  return result.errors;
};

describe("the template", () => {
  test("has the seven columns in order", () => {
    expect(IMPORT_HEADER).toEqual([
      "Nome do ambiente",
      "Categoria",
      "Setor",
      "Andar",
      "Riscos",
      "Procedimentos obrigatórios",
      "Procedimentos opcionais",
    ]);
    expect(IMPORT_COLUMNS.map((column) => column.key)).toEqual([
      "name",
      "categoria",
      "setor",
      "andar",
      "riscos",
      "obrigatorios",
      "opcionais",
    ]);
  });

  test("the instructions name the list separator, the limit and all-or-nothing", () => {
    const text = IMPORT_INSTRUCTIONS.join("\n");
    expect(text).toContain("separados por ponto e vírgula (;)");
    expect(text).toContain("5.000 ambientes por arquivo");
    expect(text).toContain("A importação é tudo ou nada");
    expect(IMPORT_MAX_ROWS).toBe(5000);
  });

  test("the success toast", () => {
    expect(importedMessage(1)).toBe("1 ambiente(s) importado(s) com sucesso");
    expect(importedMessage(12)).toBe("12 ambiente(s) importado(s) com sucesso");
  });
});

describe("importColumns", () => {
  test("finds the columns in any order, without case or accents; other columns are ignored", () => {
    expect(importColumns(HEADER)).toEqual({
      name: 0,
      categoria: 1,
      setor: 2,
      andar: 3,
      riscos: 4,
      obrigatorios: 5,
      opcionais: 6,
    });
    const shuffled = [
      "observação",
      " SETOR ",
      "procedimentos OBRIGATORIOS",
      "nome do ambiente",
      "andar",
      "CATEGORIA",
      "riscos",
      "Procedimentos Opcionais",
    ];
    expect(importColumns(shuffled)).toEqual({
      name: 3,
      categoria: 5,
      setor: 1,
      andar: 4,
      riscos: 6,
      obrigatorios: 2,
      opcionais: 7,
    });
  });

  test("the list export's headers are read too (Empresa ignored, 'Ambiente' is the name)", () => {
    const exported = [
      "Empresa",
      "Ambiente",
      "Categoria",
      "Setor",
      "Andar",
      "Riscos",
      "Procedimentos Obrigatórios",
      "Procedimentos Opcionais",
    ];
    expect(importColumns(exported)).toMatchObject({ name: 1, opcionais: 7 });
  });

  test("a missing or repeated column is named", () => {
    expect(importColumns(HEADER.filter((cell) => cell !== "Setor"))).toEqual({
      error:
        'Cabeçalho inválido: falta a coluna "Setor". A primeira linha deve ter as colunas do arquivo modelo: ' +
        "Nome do ambiente, Categoria, Setor, Andar, Riscos, Procedimentos obrigatórios, Procedimentos opcionais.",
    });
    expect(importColumns(["Nome do ambiente", "Categoria", "Setor"])).toEqual({
      error:
        'Cabeçalho inválido: faltam as colunas "Andar", "Riscos", "Procedimentos obrigatórios", "Procedimentos ' +
        'opcionais". A primeira linha deve ter as colunas do arquivo modelo: Nome do ambiente, Categoria, Setor, ' +
        "Andar, Riscos, Procedimentos obrigatórios, Procedimentos opcionais.",
    });
    expect(importColumns([...HEADER, "setor"])).toEqual({
      error: 'Cabeçalho inválido: a coluna "Setor" aparece 2 vezes.',
    });
    expect(importColumns(["", " "])).toEqual({
      error: "O arquivo está vazio. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.",
    });
  });
});

describe("names", () => {
  test("splitNames splits on ';', trims, collapses spaces and drops empty pieces", () => {
    expect(splitNames(" Biológico ;Químico;; ;  Físico   de   teste ;")).toEqual([
      "Biológico",
      "Químico",
      "Físico de teste",
    ]);
    expect(splitNames("")).toEqual([]);
    expect(splitNames("Copa, cozinha")).toEqual(["Copa, cozinha"]);
  });

  test("foldImportName ignores case, accents and extra spaces", () => {
    expect(foldImportName("  ÁREA   Química ")).toBe("area quimica");
    expect(foldImportName("Coração")).toBe(foldImportName("coracao"));
  });

  test("NameIndex: exact first, then case, then case and accents; two accent variants are ambiguous", () => {
    const index = new NameIndex([
      { id: 1, name: "Área" },
      { id: 2, name: "Area" },
      { id: 3, name: "Biológico" },
    ]);
    expect(index.find("Área")).toEqual({ item: { id: 1, name: "Área" } });
    expect(index.find("AREA")).toEqual({ item: { id: 2, name: "Area" } });
    expect(index.find("biologico")).toEqual({ item: { id: 3, name: "Biológico" } });
    expect(index.find("  BIOLÓGICO ")).toEqual({ item: { id: 3, name: "Biológico" } });
    expect(index.find("aréa")).toEqual({
      ambiguous: [
        { id: 1, name: "Área" },
        { id: 2, name: "Area" },
      ],
    });
    expect(index.find("Radioativo")).toBeNull();
  });

  test("resolveNames: ';' lists, each item once, case and accents ignored", () => {
    const index = new NameIndex(CATALOGUES.risks);
    expect(resolveNames("biologico; QUÍMICO; Biológico", index)).toEqual({
      items: [CATALOGUES.risks[0], CATALOGUES.risks[1]],
      missing: [],
      ambiguous: [],
    });
    expect(resolveNames("Biológico; Radioativo", index).missing).toEqual(["Radioativo"]);
  });

  test("resolveNames: a comma separates too when the piece is not a name itself (the list export joins with ', ')", () => {
    const index = new NameIndex(CATALOGUES.procedures);
    expect(resolveNames("Limpar piso, Recolher lixo", index).items.map((item) => item.id)).toEqual([31, 32]);
    // A name with a comma is kept whole.
    expect(resolveNames("copa, cozinha e pias; Limpar piso", index).items.map((item) => item.id)).toEqual([34, 31]);
    // Parts that are names are taken, the others reported; nothing matching reports the piece as written.
    expect(resolveNames("Limpar piso, Varrer", index)).toMatchObject({ items: [{ id: 31 }], missing: ["Varrer"] });
    expect(resolveNames("Varrer, Passar pano", index)).toMatchObject({ items: [], missing: ["Varrer, Passar pano"] });
  });
});

describe("validateEnvironmentImport", () => {
  test("answers the payload of each row with its line, names normalised and matched without case or accents", () => {
    const result = check([
      [
        "  Banheiro   térreo ",
        "banheiro",
        "RECEPCAO",
        " Térreo ",
        "biologico; Químico",
        "limpar piso",
        "Repor papel toalha",
      ],
      [],
      ["Sala 2", "Sala", "UTI", "1º andar", "Físico, Químico", "", "Limpar piso; Recolher lixo"],
    ]);
    expect(result).toEqual({
      rows: [
        {
          line: 2,
          name: "Banheiro térreo",
          andar: "Térreo",
          categoriaId: 1,
          setorId: 11,
          riscos: [21, 22],
          procedures: [31],
          proceduresNotMandatory: [33],
        },
        {
          line: 4,
          name: "Sala 2",
          andar: "1º andar",
          categoriaId: 2,
          setorId: 12,
          riscos: [23, 22],
          procedures: [],
          proceduresNotMandatory: [31, 32],
        },
      ],
    });
  });

  test("a category or sector is one name: a ';' inside it is part of the name", () => {
    const result = check([["Copa 1", "copa; cozinha", "UTI", "Térreo", "Biológico", "Limpar piso", ""]]);
    expect(result).toMatchObject({ rows: [{ categoriaId: 3 }] });
  });

  test("required cells, letter for letter", () => {
    // Blank rows are skipped: this one has a note beyond the template's columns.
    expect(errorsOf([["", "", " ", "", "", "", "", "observação"]])).toEqual([
      "Linha 2: nome do ambiente é obrigatório",
      "Linha 2: categoria é obrigatória",
      "Linha 2: setor é obrigatório",
      "Linha 2: nome do andar é obrigatório",
      'Linha 2: informe ao menos um risco na coluna "Riscos"',
      'Linha 2: informe ao menos um procedimento na coluna "Procedimentos obrigatórios" ou "Procedimentos opcionais"',
    ]);
  });

  test("names not found name the row and the column", () => {
    expect(
      errorsOf([
        good("Ok"),
        ["Sala 3", "Banheiros", "Portaria", "Térreo", "Biológico; Radioativo", "Varrer", "Encerar"],
      ]),
    ).toEqual([
      'Linha 3: categoria "Banheiros" não encontrada',
      'Linha 3: setor "Portaria" não encontrado',
      'Linha 3: risco "Radioativo" não encontrado',
      'Linha 3: procedimento obrigatório "Varrer" não encontrado',
      'Linha 3: procedimento opcional "Encerar" não encontrado',
    ]);
  });

  test("an ambiguous name asks for the name as registered", () => {
    const catalogues = {
      ...CATALOGUES,
      sectors: [...CATALOGUES.sectors, { id: 13, name: "Área" }, { id: 14, name: "Area" }],
    };
    const result = validateEnvironmentImport(
      table([["Sala", "Sala", "aréa", "Térreo", "Biológico", "Limpar piso", ""]]),
      catalogues,
      new Map(),
    );
    expect(result).toEqual({
      errors: [
        'Linha 2: setor "aréa" corresponde a mais de um setor da filial ("Área", "Area"); escreva o nome como está cadastrado',
      ],
      total: 1,
    });
  });

  test("too long name and floor", () => {
    expect(errorsOf([["x".repeat(121), "Sala", "UTI", "y".repeat(61), "Biológico", "Limpar piso", ""]])).toEqual([
      "Linha 2: nome do ambiente tem mais de 120 caracteres",
      "Linha 2: andar tem mais de 60 caracteres",
    ]);
  });

  test("a procedure in both lists", () => {
    expect(
      errorsOf([["Sala", "Sala", "UTI", "Térreo", "Biológico", "Limpar piso; Recolher lixo", "limpar piso"]]),
    ).toEqual([
      'Linha 2: "Limpar piso" está nas duas colunas de procedimentos; um procedimento não pode ser obrigatório e opcional ao mesmo tempo',
    ]);
    expect(
      errorsOf([
        ["Sala", "Sala", "UTI", "Térreo", "Biológico", "Limpar piso; Recolher lixo", "Recolher lixo; Limpar piso"],
      ]),
    ).toEqual([
      'Linha 2: "Limpar piso", "Recolher lixo" estão nas duas colunas de procedimentos; um procedimento não pode ser obrigatório e opcional ao mesmo tempo',
    ]);
  });

  test("a name twice in the file (any case) and a name the branch already has", () => {
    expect(
      errorsOf([good("Sala 1"), good("Sala 2"), good("SALA 1"), good("Banheiro térreo")], {
        "banheiro térreo": "Banheiro Térreo",
      }),
    ).toEqual([
      'Linha 4: ambiente "SALA 1" repetido na planilha (linha 2)',
      'Linha 5: já existe um ambiente cadastrado com o mesmo nome e empresa ("Banheiro Térreo")',
    ]);
  });

  test("a missing risk name is not also reported as 'no risk'; a missing procedure not as 'no procedure'", () => {
    expect(errorsOf([["Sala", "Sala", "UTI", "Térreo", "Radioativo", "Varrer", ""]])).toEqual([
      'Linha 2: risco "Radioativo" não encontrado',
      'Linha 2: procedimento obrigatório "Varrer" não encontrado',
    ]);
  });

  test("CSV rows wider than the header (a list split by an unquoted separator) are named", () => {
    const result = validateEnvironmentImport(
      { ...table([[...good("Sala"), "Químico"]]), strictWidth: true },
      CATALOGUES,
      new Map(),
    );
    expect(result).toEqual({
      errors: [
        "Linha 2: a linha tem mais colunas que o cabeçalho; no CSV, escreva entre aspas a célula que tiver o separador do arquivo",
      ],
      total: 1,
    });
    // In an .xlsx, cells beyond the header are ignored.
    expect(check([[...good("Sala"), "Químico"]])).toMatchObject({ rows: [{ name: "Sala" }] });
  });

  test("line numbers follow the sheet's rows (a header further down, blank rows kept)", () => {
    const result = validateEnvironmentImport(
      {
        header: HEADER,
        headerLine: 3,
        rows: [
          { line: 4, cells: good("A") },
          { line: 7, cells: good("") },
        ],
      },
      CATALOGUES,
      new Map(),
    );
    expect(result).toEqual({ errors: ["Linha 7: nome do ambiente é obrigatório"], total: 1 });
  });

  test("file-level problems: the header, no rows, too many rows", () => {
    expect(check([good("A")], {}, ["Nome", "Categoria"])).toMatchObject({
      errors: [expect.stringMatching(/^Cabeçalho inválido: faltam as colunas "Setor", "Andar"/)],
    });
    expect(check([[], ["", " "]])).toEqual({
      errors: ["O arquivo não tem nenhuma linha além do cabeçalho."],
      total: 1,
    });
    const many = Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, index) => good(`Sala ${index}`));
    expect(check(many)).toEqual({
      errors: ["O arquivo tem 5.001 linhas de ambientes; o limite é de 5.000 por arquivo."],
      total: 1,
    });
    expect(check(many.slice(1))).toMatchObject({ rows: { length: IMPORT_MAX_ROWS } });
  });

  test("errors are capped at 50 listed, the rest counted", () => {
    const rows = Array.from({ length: 60 }, () => ["", "Sala", "UTI", "Térreo", "Biológico", "Limpar piso", ""]);
    const result = check(rows);
    expect(result).toMatchObject({ total: 60 });
    if (!("errors" in result)) throw new Error("expected errors");
    expect(result.errors).toHaveLength(51);
    expect(result.errors[49]).toBe("Linha 51: nome do ambiente é obrigatório");
    expect(result.errors[50]).toBe("... e mais 10 erro(s).");
    expect(capErrors(["a", "b"])).toEqual(["a", "b"]);
  });
});
