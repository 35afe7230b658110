import { describe, expect, test } from "vitest";

import { CSV_MAX_ROWS, trimErrors, validateCatalogueCsv } from "../../api/domain/catalogue-csv.ts";
import { CATALOGUE_KINDS, CATALOGUES, csvHeader } from "../../api/domain/catalogues.ts";
import { parseCsv, type CsvTable } from "../../api/lib/csv.ts";

const table = (header: string[], ...rows: string[][]): CsvTable => ({ header, rows });

const UNCOLOURED = CATALOGUE_KINDS.filter((kind) => !CATALOGUES[kind].hasColor);

describe("csvHeader", () => {
  test("'nome' for sectors, procedures and categories; 'nome;cor' for risks", () => {
    expect(csvHeader("setores")).toEqual(["nome"]);
    expect(csvHeader("procedimentos")).toEqual(["nome"]);
    expect(csvHeader("categorias")).toEqual(["nome"]);
    expect(csvHeader("riscos")).toEqual(["nome", "cor"]);
  });
});

describe.each(UNCOLOURED)("validateCatalogueCsv(%s)", (kind) => {
  // 'o nome do setor', 'o nome da categoria'
  const emptyName = (line: number) =>
    `Linha ${line}: o ${kind === "categorias" ? "nome da categoria" : `nome do ${CATALOGUES[kind].singular}`} está vazio.`;

  test("answers the rows with their line numbers (header = line 1), names trimmed and spaces collapsed", () => {
    expect(validateCatalogueCsv(kind, table(["nome"], ["  Área   química "], ["Coração"]))).toEqual({
      rows: [
        { line: 2, name: "Área química" },
        { line: 3, name: "Coração" },
      ],
    });
  });

  test("the header is compared without case, accents or spaces; extra columns are ignored", () => {
    expect(validateCatalogueCsv(kind, table([" NÓME "], ["Sala"]))).toEqual({ rows: [{ line: 2, name: "Sala" }] });
    expect(validateCatalogueCsv(kind, table(["Nome", "observação"], ["Sala", "x"]))).toEqual({
      rows: [{ line: 2, name: "Sala" }],
    });
  });

  test.each([[["name"]], [["descricao"]], [[]], [["", "nome"]]])(
    "header %j is refused with the template's header",
    (header) => {
      expect(validateCatalogueCsv(kind, table(header, ["Sala"]))).toEqual({
        errors: ["Cabeçalho inválido: a primeira linha deve ser 'nome', como no arquivo modelo."],
      });
    },
  );

  test("a file with only the header is refused", () => {
    expect(validateCatalogueCsv(kind, table(["nome"]))).toEqual({
      errors: ["O arquivo não tem nenhuma linha além do cabeçalho."],
    });
  });

  test("an empty name on a row that is not blank (a stray second cell) names its line and the catalogue", () => {
    expect(validateCatalogueCsv(kind, table(["nome"], ["Sala"], ["  ", "obs"]))).toEqual({
      errors: [emptyName(3)],
    });
  });

  test("blank rows are skipped and later rows keep their spreadsheet line numbers", () => {
    expect(validateCatalogueCsv(kind, table(["nome"], ["Sala"], ["   "], [""], ["sala"]))).toEqual({
      errors: ["Linha 5: 'sala' está repetido no arquivo (linha 2)."],
    });
  });

  test("a name over 120 characters is refused; 120 is accepted", () => {
    expect(validateCatalogueCsv(kind, table(["nome"], ["x".repeat(120)], ["y".repeat(121)]))).toEqual({
      errors: ["Linha 3: o nome tem mais de 120 caracteres."],
    });
  });

  test("a name twice in the file (case- and space-insensitive) names both lines", () => {
    expect(validateCatalogueCsv(kind, table(["nome"], ["Área química"], ["Sala"], ["ÁREA  QUÍMICA"]))).toEqual({
      errors: ["Linha 4: 'ÁREA QUÍMICA' está repetido no arquivo (linha 2)."],
    });
  });

  test("every problem is reported, not only the first", () => {
    const result = validateCatalogueCsv(
      kind,
      table(["nome"], ["y".repeat(121)], ["Sala"], ["sala"], ["z".repeat(121)]),
    );
    expect(result).toEqual({
      errors: [
        "Linha 2: o nome tem mais de 120 caracteres.",
        "Linha 4: 'sala' está repetido no arquivo (linha 3).",
        "Linha 5: o nome tem mais de 120 caracteres.",
      ],
    });
  });

  test("no colour is read for a catalogue without colour", () => {
    const result = validateCatalogueCsv(kind, table(["nome"], ["Sala", "#aabbcc"]));
    expect(result).toEqual({ rows: [{ line: 2, name: "Sala" }] });
  });

  test(`at most ${CSV_MAX_ROWS} rows per file`, () => {
    const rows = Array.from({ length: CSV_MAX_ROWS + 1 }, (_, index) => [`Item ${index}`]);
    expect(validateCatalogueCsv(kind, table(["nome"], ...rows))).toEqual({
      errors: [`O arquivo tem ${CSV_MAX_ROWS + 1} linhas; o limite é de ${CSV_MAX_ROWS} por envio.`],
    });
    expect("rows" in validateCatalogueCsv(kind, table(["nome"], ...rows.slice(1)))).toBe(true);
  });
});

describe("validateCatalogueCsv(riscos)", () => {
  test("answers name and colour (lower case)", () => {
    expect(
      validateCatalogueCsv("riscos", table(["nome", "cor"], ["Químico", " #AABBCC "], ["Físico", "#1565c0"])),
    ).toEqual({
      rows: [
        { line: 2, name: "Químico", color: "#aabbcc" },
        { line: 3, name: "Físico", color: "#1565c0" },
      ],
    });
  });

  test("the header must be 'nome;cor'", () => {
    const expected = { errors: ["Cabeçalho inválido: a primeira linha deve ser 'nome;cor', como no arquivo modelo."] };
    expect(validateCatalogueCsv("riscos", table(["nome"], ["Químico"]))).toEqual(expected);
    expect(validateCatalogueCsv("riscos", table(["cor", "nome"], ["#aabbcc", "Químico"]))).toEqual(expected);
    expect(validateCatalogueCsv("riscos", table(["Nome", "Cor"], ["Químico", "#aabbcc"]))).toEqual({
      rows: [{ line: 2, name: "Químico", color: "#aabbcc" }],
    });
  });

  test.each(["", "red", "#abc", "aabbcc", "#gg0000", "#aabbccdd"])(
    "colour '%s' is refused with the line and the format",
    (color) => {
      expect(validateCatalogueCsv("riscos", table(["nome", "cor"], ["Químico", "#aabbcc"], ["Físico", color]))).toEqual(
        {
          errors: [`Linha 3: a cor '${color}' é inválida; use o formato #RRGGBB (por exemplo #c62828).`],
        },
      );
    },
  );

  test("a missing colour cell is an invalid colour", () => {
    expect(validateCatalogueCsv("riscos", table(["nome", "cor"], ["Químico"]))).toEqual({
      errors: ["Linha 2: a cor '' é inválida; use o formato #RRGGBB (por exemplo #c62828)."],
    });
  });

  test("an empty name is reported before its colour", () => {
    expect(validateCatalogueCsv("riscos", table(["nome", "cor"], ["", "x"]))).toEqual({
      errors: ["Linha 2: o nome do risco está vazio."],
    });
  });
});

describe("validateCatalogueCsv with parseCsv", () => {
  test("a Windows-1252 semicolon file as pt-BR Excel writes it", () => {
    const parsed = parseCsv("Nome;Cor\r\nÁrea química;#AABBCC\r\nCopa, cozinha;#112233\r\n");
    expect("error" in parsed).toBe(false);
    expect(validateCatalogueCsv("riscos", parsed as CsvTable)).toEqual({
      rows: [
        { line: 2, name: "Área química", color: "#aabbcc" },
        { line: 3, name: "Copa, cozinha", color: "#112233" },
      ],
    });
  });

  test("line numbers of a parsed file count the header as line 1", () => {
    const parsed = parseCsv("nome\r\nSala\r\nSala\r\n") as CsvTable;
    expect(validateCatalogueCsv("setores", parsed)).toEqual({
      errors: ["Linha 3: 'Sala' está repetido no arquivo (linha 2)."],
    });
  });
});

describe("trimErrors", () => {
  test("keeps up to 10 messages", () => {
    const ten = Array.from({ length: 10 }, (_, index) => `erro ${index}`);
    expect(trimErrors(ten)).toEqual(ten);
  });

  test("beyond 10, the first 10 and a count of the rest", () => {
    const many = Array.from({ length: 13 }, (_, index) => `erro ${index}`);
    expect(trimErrors(many)).toEqual([...many.slice(0, 10), "... e mais 3 erro(s)."]);
  });

  test("a file with many bad rows reports 10 lines and the count", () => {
    const rows = Array.from({ length: 25 }, () => ["z".repeat(121)]);
    const result = validateCatalogueCsv("setores", table(["nome"], ...rows));
    expect("errors" in result && result.errors).toHaveLength(11);
    expect("errors" in result && result.errors[10]).toBe("... e mais 15 erro(s).");
  });
});
