import { describe, expect, test } from "vitest";

import { decodeCsvBytes, normaliseHeaderCell, parseCsv } from "../../api/lib/csv.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
/** Windows-1252 bytes: Latin-1 for the accented letters, plus the 0x80-0x9F range written out. */
const cp1252 = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part)));

describe("decodeCsvBytes (api/lib/csv.ts)", () => {
  test("UTF-8 without BOM", () => {
    expect(decodeCsvBytes(utf8("nome\r\nÁrea química\r\nCoração\r\n"))).toBe("nome\r\nÁrea química\r\nCoração\r\n");
  });

  test("UTF-8 with BOM: the BOM is dropped, so the header reads 'nome'", () => {
    const text = decodeCsvBytes(utf8("\uFEFFnome,cor\r\nÁrea,#aabbcc\r\n"));
    expect(text).toBe("nome,cor\r\nÁrea,#aabbcc\r\n");
    expect(text.charCodeAt(0)).toBe("n".charCodeAt(0));
  });

  test("bytes that are not valid UTF-8 are read as Windows-1252 (Excel's 'CSV (separado por vírgulas)')", () => {
    expect(decodeCsvBytes(cp1252("nome;cor\r\nÁrea química;#aabbcc\r\nÇão úmido\r\n"))).toBe(
      "nome;cor\r\nÁrea química;#aabbcc\r\nÇão úmido\r\n",
    );
  });

  test("Windows-1252's own characters in 0x80-0x9F (curly quotes, dashes, euro) are not C1 control codes", () => {
    // Excel's autocorrect writes ’ and – into names: 'Copa d’água', 'Sala 1 – térreo'.
    const bytes = cp1252("Copa d", [0x92], "água ", [0x96], " ", [0x93], "VIP", [0x94], " ", [0x80], [0x85], [0x97]);
    expect(decodeCsvBytes(bytes)).toBe("Copa d\u2019água \u2013 \u201cVIP\u201d \u20ac\u2026\u2014");
    expect(decodeCsvBytes(cp1252([0x8a, 0x8c, 0x9a, 0x9c, 0x9f, 0x99]))).toBe("ŠŒšœŸ™");
    // The five bytes Windows-1252 leaves undefined are no text: they become the replacement character.
    expect(decodeCsvBytes(cp1252("é", [0x81, 0x8d, 0x8f, 0x90, 0x9d]))).toBe("é\ufffd\ufffd\ufffd\ufffd\ufffd");
  });

  test("plain ASCII is the same either way; an empty file is empty", () => {
    expect(decodeCsvBytes(utf8("nome\nSala\n"))).toBe("nome\nSala\n");
    expect(decodeCsvBytes(new Uint8Array())).toBe("");
  });
});

describe("parseCsv (api/lib/csv.ts)", () => {
  test.each([
    ["semicolon", "nome;cor\r\nÁrea;#aabbcc\r\nSala;#112233\r\n"],
    ["comma", "nome,cor\r\nÁrea,#aabbcc\r\nSala,#112233\r\n"],
    ["tab", "nome\tcor\nÁrea\t#aabbcc\nSala\t#112233\n"],
  ])("guesses the %s delimiter", (_name, text) => {
    expect(parseCsv(text)).toEqual({
      header: ["nome", "cor"],
      rows: [
        ["Área", "#aabbcc"],
        ["Sala", "#112233"],
      ],
    });
  });

  test("a comma inside a semicolon file stays in the field", () => {
    expect(parseCsv("nome;cor\r\nCopa, cozinha;#aabbcc\r\nSala;#112233\r\n")).toEqual({
      header: ["nome", "cor"],
      rows: [
        ["Copa, cozinha", "#aabbcc"],
        ["Sala", "#112233"],
      ],
    });
  });

  test("quoted fields: the delimiter and doubled quotes inside quotes", () => {
    expect(parseCsv('nome,cor\r\n"Copa, cozinha",#aabbcc\r\n"Sala ""VIP""",#112233\r\n')).toEqual({
      header: ["nome", "cor"],
      rows: [
        ["Copa, cozinha", "#aabbcc"],
        ['Sala "VIP"', "#112233"],
      ],
    });
    expect(parseCsv('nome;cor\r\n"Sala; 2";#aabbcc\r\n')).toEqual({
      header: ["nome", "cor"],
      rows: [["Sala; 2", "#aabbcc"]],
    });
  });

  test("a one-column file (the sector, procedure and category template) keeps commas and semicolons in names", () => {
    // pt-BR Excel writes a one-column sheet without quotes: nothing in the file says which delimiter is meant.
    expect(parseCsv("nome\r\nCopa, cozinha\r\nSala\r\n")).toEqual({
      header: ["nome"],
      rows: [["Copa, cozinha"], ["Sala"]],
    });
    expect(parseCsv("nome\r\nCopa, cozinha e lavanderia\r\n")).toEqual({
      header: ["nome"],
      rows: [["Copa, cozinha e lavanderia"]],
    });
    expect(parseCsv("nome\nDepósito; térreo\n")).toEqual({ header: ["nome"], rows: [["Depósito; térreo"]] });
    expect(parseCsv('nome\n"Sala ""A"""\n')).toEqual({ header: ["nome"], rows: [['Sala "A"']] });
  });

  test("blank lines before the header and at the end are dropped, blank lines inside kept (for line numbers); header cells are trimmed, data cells are left to the validator", () => {
    expect(parseCsv("\r\n nome ; cor \r\n\r\nSala ;#aabbcc\r\n;\r\n   \r\n")).toEqual({
      header: ["nome", "cor"],
      headerLine: 2,
      rows: [[""], ["Sala ", "#aabbcc"]],
    });
  });

  test("LF, CRLF and a missing final newline all read the same", () => {
    const expected = { header: ["nome"], rows: [["A"], ["B"]] };
    expect(parseCsv("nome\nA\nB")).toEqual(expected);
    expect(parseCsv("nome\r\nA\r\nB\r\n")).toEqual(expected);
  });

  test("an unclosed quote is an error naming its line", () => {
    expect(parseCsv('nome\r\n"Sala\r\n')).toEqual({ error: "Linha 2: aspas sem fechamento." });
  });

  test("an empty text has an empty header and no rows", () => {
    expect(parseCsv("")).toEqual({ header: [], rows: [] });
  });
});

describe("normaliseHeaderCell", () => {
  test.each(["nome", "Nome", " NOME ", "Nóme"])("'%s' reads as 'nome'", (cell) => {
    expect(normaliseHeaderCell(cell)).toBe("nome");
  });

  test("'Cor' and 'COR' read as 'cor'", () => {
    expect(normaliseHeaderCell("Cor")).toBe("cor");
    expect(normaliseHeaderCell("COR")).toBe("cor");
  });
});
