/**
 * The old system's data (api/domain/legacy.ts; docs/legacy-data.md): the §4 old-system status rule, the import file's
 * instants and times, its header and rows, and the file's encoding and delimiter as api/lib/csv.ts detects them.
 */
import iconv from "iconv-lite";
import { describe, expect, test } from "vitest";

import {
  LEGACY_CUTOFF,
  LEGACY_MAX_ROWS,
  legacyStatus,
  parseLegacyInstant,
  parseLegacyTime,
  readLegacyTable,
  type LegacyObservationKey,
  type LegacyStatusRow,
} from "../../api/domain/legacy.ts";
import { decodeCsvBytes, parseCsv, type CsvTable } from "../../api/lib/csv.ts";

const row: LegacyStatusRow = { environmentId: 10, userId: 20, inicio: "2022-03-15T11:00:00.000Z", observacao: null };
const note = (over: Partial<LegacyObservationKey> = {}): LegacyObservationKey => ({
  environmentId: 10,
  userId: 20,
  createdAt: "2022-03-15T18:00:00.000Z",
  observacao: "Faltou material",
  ...over,
});

describe("legacyStatus (spec 001 §4 'Old-system rows')", () => {
  test.each([
    ["no observation at all", row, [], "Completo"],
    ["the row's own observation", { ...row, observacao: "Sala trancada" }, [], "Incompleto"],
    ["a blank own observation is none", { ...row, observacao: "  " }, [], "Completo"],
    ["same room, collaborator and day", row, [note()], "Incompleto"],
    ["another room", row, [note({ environmentId: 11 })], "Completo"],
    ["another collaborator", row, [note({ userId: 21 })], "Completo"],
    ["the day before", row, [note({ createdAt: "2022-03-14T18:00:00.000Z" })], "Completo"],
    // 23:30 in Fortaleza on the 15th is 02:30 UTC on the 16th: the same business day.
    [
      "late evening in Fortaleza (next day in UTC)",
      row,
      [note({ createdAt: "2022-03-16T02:30:00.000Z" })],
      "Incompleto",
    ],
    ["00:30 on the 16th in Fortaleza", row, [note({ createdAt: "2022-03-16T03:30:00.000Z" })], "Completo"],
    ["an observation without a room", row, [note({ environmentId: null })], "Completo"],
    ["a blank observation", row, [note({ observacao: " " })], "Completo"],
    ["one of several matches", row, [note({ userId: 1 }), note()], "Incompleto"],
  ] as const)("%s → %s", (_name, input, observations, expected) => {
    expect(legacyStatus(input, observations)).toBe(expected);
  });
});

describe("the file's instants and times", () => {
  test.each([
    ["2022-03-15T08:00:00.000Z", "2022-03-15T08:00:00.000Z"],
    ["2022-03-15T08:00:00-03:00", "2022-03-15T11:00:00.000Z"],
    ["2022-03-15 08:00:00", "2022-03-15T11:00:00.000Z"],
    ["2022-03-15 08:00", "2022-03-15T11:00:00.000Z"],
    ["15/03/2022 08:00:00", "2022-03-15T11:00:00.000Z"],
    ["15/03/2022", "2022-03-15T03:00:00.000Z"],
    ["2022-03-15 08:00:00.5", "2022-03-15T11:00:00.500Z"],
  ])("%s is %s", (text, expected) => {
    expect(parseLegacyInstant(text)?.toISOString()).toBe(expected);
  });

  test.each(["", "ontem", "31/02/2022 08:00", "2022-13-01", "2022-03-15 24:00", "15-03-2022", "1900-01-01"])(
    "%j is not an instant",
    (text) => expect(parseLegacyInstant(text)).toBeNull(),
  );

  test.each([
    ["08:00", "08:00:00"],
    ["8:05", "08:05:00"],
    ["17:30:15", "17:30:15"],
    ["24:00", null],
    ["08h00", null],
  ])("time %j is %j", (text, expected) => expect(parseLegacyTime(text)).toBe(expected));

  test("the cutoff is 1 August 2022, midnight in Fortaleza", () => {
    expect(LEGACY_CUTOFF.toISOString()).toBe("2022-08-01T03:00:00.000Z");
  });
});

const HEADER = ["ID", "AMBIENTE_ID", "userId", "INICIO", "FIM", "PROCEDIMENTO_NOME", "observacao"];
const table = (rows: string[][], header = HEADER): CsvTable => ({ header, rows });

describe("readLegacyTable", () => {
  test("reads a good row, names by §3's spelling in any case, blank cells as null", () => {
    const read = readLegacyTable(
      table(
        [["7", "3", "9", "15/03/2022 08:00", "15/03/2022 08:20", "Limpar piso", ""]],
        ["id", "Ambiente_Id", "USERID", "inicio", "fim", "procedimento_nome", "Observacao"],
      ),
    );
    expect(read).toEqual({
      rows: [
        expect.objectContaining({
          line: 2,
          legacyId: 7,
          environmentId: 3,
          userId: 9,
          inicio: new Date("2022-03-15T11:00:00.000Z"),
          fim: new Date("2022-03-15T11:20:00.000Z"),
          procedimentoNome: "Limpar piso",
          observacao: null,
          imagem: null,
        }),
      ],
    });
  });

  test("takes the old environment row's names and ignores its personal columns", () => {
    const read = readLegacyTable(
      table(
        [["1", "3", "9", "2022-01-02 10:00", "Zé", "000", "a@b.c", "85"]],
        ["ID", "AMBIENTE_ID", "id_usuario", "data_inicio", "nome_usuario", "cpf", "email_usuario", "telefone"],
      ),
    );
    expect(read).toEqual({ rows: [expect.objectContaining({ userId: 9, nomeUsuario: "Zé" })] });
  });

  test.each([
    [["ID", "AMBIENTE_ID", "userId"], "Cabeçalho: faltam as colunas 'INICIO'."],
    [[...HEADER, "COR"], "Cabeçalho: coluna desconhecida 'COR'."],
    [[...HEADER, "id"], "Cabeçalho: a coluna 'ID' aparece mais de uma vez."],
  ])("header %j: %s", (header, message) => {
    expect(readLegacyTable(table([["1", "2", "3", "2022-01-01"]], header))).toEqual({ errors: [message] });
  });

  test("every bad row is named with its line, blank lines counted", () => {
    const read = readLegacyTable(
      table([
        ["1", "3", "9", "2022-03-15 08:00", "", "", ""],
        ["", "", "", "", "", "", ""],
        ["x", "3", "", "2022-08-01 00:00", "", "", ""],
        ["2", "3", "9", "2022-03-15 08:00", "2022-03-15 07:00", "", ""],
        // The same ID again is the import's to judge (once per company: the room's), not the file's.
        ["1", "3", "9", "2022-03-16 08:00", "", "", ""],
        ["4", "3", "9", "32/01/2022", "", "", ""],
      ]),
    );
    expect(read).toEqual({
      errors: [
        "Linha 4: ID deve ser um número inteiro positivo; userId é obrigatório; INICIO deve ser anterior a 01/08/2022 (dados do sistema anterior).",
        "Linha 5: FIM é anterior a INICIO.",
        "Linha 7: INICIO não é uma data válida (use dd/mm/aaaa hh:mm:ss ou aaaa-mm-dd hh:mm:ss).",
      ],
    });
  });

  test("the last minute of July 2022 is old data", () => {
    expect("rows" in readLegacyTable(table([["1", "3", "9", "31/07/2022 23:59:59", "", "", ""]]))).toBe(true);
  });

  test("an empty file and one past the row bound are refused", () => {
    expect(readLegacyTable(table([]))).toEqual({ errors: ["O arquivo não tem nenhuma linha além do cabeçalho."] });
    const many = Array.from({ length: LEGACY_MAX_ROWS + 1 }, (_, i) => [String(i + 1), "3", "9", "2022-01-01"]);
    expect(readLegacyTable(table(many))).toEqual({
      errors: [`O arquivo tem ${LEGACY_MAX_ROWS + 1} linhas; o limite é de ${LEGACY_MAX_ROWS} por importação.`],
    });
  });
});

describe("the file's encoding and delimiter (api/lib/csv.ts)", () => {
  const text =
    "ID;AMBIENTE_ID;userId;INICIO;AMBIENTE_NOME;observacao\n1;3;9;15/03/2022 08:00;Recepção;Sem água – ver ’caixa’\n";
  const read = (bytes: Uint8Array) => {
    const parsed = parseCsv(decodeCsvBytes(bytes));
    if ("error" in parsed) throw new Error(parsed.error);
    const rows = readLegacyTable(parsed);
    if ("errors" in rows) throw new Error(rows.errors.join("\n"));
    return rows.rows[0];
  };

  test("Windows-1252 with ';' (pt-BR Excel's 'CSV')", () => {
    const row = read(new Uint8Array(iconv.encode(text, "win1252")));
    expect(row.ambienteNome).toBe("Recepção");
    expect(row.observacao).toBe("Sem água – ver ’caixa’");
  });

  test("UTF-8 with a BOM and ','", () => {
    const comma = text.replaceAll(";", ",");
    const row = read(new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(comma, "utf8")])));
    expect(row).toMatchObject({ legacyId: 1, ambienteNome: "Recepção", observacao: "Sem água – ver ’caixa’" });
  });

  test("a quoted name holding the other delimiter stays one cell", () => {
    const row = read(
      Buffer.from('ID,AMBIENTE_ID,userId,INICIO,AMBIENTE_NOME\n1,3,9,2022-03-15,"Copa; cozinha, térreo"\n'),
    );
    expect(row.ambienteNome).toBe("Copa; cozinha, térreo");
  });
});
