/**
 * Batch import of catalogues (spec 000 §2 'Cadastro em lote', §5 'Batch', §7 'Batch CSV';
 * docs/decisions/004-catalogues.md 'CSV import'): POST cadastroViaCSV/{setor|risco|procedures|categorias} with the
 * contract's file field and idEmpresaFilial; all rows or none, every problem reported with its line.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { CSV_MAX_BYTES } from "../../api/domain/catalogue-csv.ts";
import { CATALOGUE_KINDS, CATALOGUES, CSV_INVALID } from "../../api/domain/catalogues.ts";
import { useTestApi } from "../support/api.ts";
import { catalogueRows } from "../support/catalogues.ts";
import { branchId, COMPANY_A, companyId } from "../support/demo.ts";

const t = useTestApi();

let admin: string;
const ids = { hospital: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
  ids.hospital = await companyId(t.db, COMPANY_A);
  ids.matriz = await branchId(t.db, "Matriz Fortaleza");
  ids.aldeota = await branchId(t.db, "Filial Aldeota");
  ids.messejana = await branchId(t.db, "Filial Messejana");
  ids.caucaia = await branchId(t.db, "Filial Caucaia (desativada)");
  ids.recife = await branchId(t.db, "Sede Recife");
});

type Upload = { name?: string; type?: string; branch?: number | string | null; field?: string | null };

describe.each(CATALOGUE_KINDS)("POST /api/cadastroViaCSV for %s", (kind) => {
  const c = CATALOGUES[kind];
  const path = `/api${c.csvPath}`;
  const header = c.hasColor ? "nome;cor" : "nome";
  const article = c.feminine ? "uma" : "um";

  /** A template file: one line per name (risks get a colour each), joined by CRLF as Excel writes it. */
  const csv = (names: string[], options: { separator?: string; header?: string } = {}) => {
    const separator = options.separator ?? ";";
    const lines = names.map((name, index) =>
      c.hasColor ? `${name}${separator}#00aa${String(10 + index).padStart(2, "0")}` : name,
    );
    return `${options.header ?? header.replace(";", separator)}\r\n${lines.join("\r\n")}\r\n`;
  };

  const upload = (content: string | Uint8Array | null, options: Upload = {}) => {
    const form = new FormData();
    if (content !== null && options.field !== null) {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      form.set(
        options.field ?? c.csvField,
        new File([bytes as Uint8Array<ArrayBuffer>], options.name ?? "lista.csv", { type: options.type ?? "text/csv" }),
      );
    }
    if (options.branch !== null) form.set("idEmpresaFilial", String(options.branch ?? ids.aldeota));
    return t.call("POST", path, { token: admin, form });
  };

  const rows = () => catalogueRows(t.db, kind);

  async function expectNothingWritten(call: () => Promise<{ status: number; body: any }>) {
    const before = await rows();
    const answer = await call();
    expect(await rows()).toEqual(before);
    return answer;
  }

  /** Imports and answers the rows it added. */
  async function imported(content: string | Uint8Array, options: Upload = {}) {
    const before = new Set((await rows()).map((row) => row.id));
    const answer = await upload(content, options);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const added = (await rows()).filter((row) => !before.has(row.id));
    expect(answer.body).toEqual({ created: added.length });
    return added;
  }

  test("UTF-8 with BOM, comma separated: every row is created in the branch, accents intact", async () => {
    const added = await imported(`\uFEFF${csv(["Área química", "Coração", "Sala de espera"], { separator: "," })}`);
    expect(added.map((row) => row.name)).toEqual(["Área química", "Coração", "Sala de espera"]);
    for (const row of added)
      expect(row).toMatchObject({ branch_id: ids.aldeota, company_id: ids.hospital, deleted_at: null });
    if (c.hasColor) expect(added.map((row) => row.color)).toEqual(["#00aa10", "#00aa11", "#00aa12"]);
  });

  test("Windows-1252, semicolon separated (Excel pt-BR): accents and Excel's curly quotes come out right", async () => {
    // Latin-1 bytes equal Windows-1252 for these letters; 0x92 is Windows-1252's ’ (Excel's autocorrected apostrophe).
    const text = c.hasColor
      ? "Nome;Cor\r\nÁrea química CP;#AABBCC\r\nCopa, cozinha;#112233\r\nCopa dXágua;#445566\r\n"
      : "Nome\r\nÁrea química CP\r\nCopa, cozinha\r\nCopa dXágua\r\n";
    const bytes = Buffer.from(text, "latin1");
    bytes[bytes.indexOf("X".charCodeAt(0))] = 0x92;
    const added = await imported(new Uint8Array(bytes));
    expect(added.map((row) => row.name)).toEqual(["Área química CP", "Copa, cozinha", "Copa d\u2019água"]);
    if (c.hasColor) expect(added.map((row) => row.color)).toEqual(["#aabbcc", "#112233", "#445566"]);
  });

  test("tab separated, LF line ends, blank lines and a quoted name", async () => {
    const text = c.hasColor
      ? 'nome\tcor\n\n"Sala ""VIP"""\t#abcdef\n  \nDepósito\t#fedcba\n'
      : 'nome\n\n"Sala ""VIP"""\n  \nDepósito\n';
    const added = await imported(text, { branch: ids.messejana });
    expect(added.map((row) => row.name)).toEqual(['Sala "VIP"', "Depósito"]);
  });

  test("names are trimmed and spaces collapsed as on the single form", async () => {
    const added = await imported(csv(["  Sala   de   reunião CSV  "]));
    expect(added.map((row) => row.name)).toEqual(["Sala de reunião CSV"]);
  });

  test("the items are listed afterwards", async () => {
    await imported(csv(["Listado após importar"]), { branch: ids.matriz });
    const list = await t.get(`/api${c.apiPath}?filialId=${ids.matriz}&q=listado`, { token: admin });
    expect(list.body.items.map((item: { name: string }) => item.name)).toEqual(["Listado após importar"]);
  });

  test("a file of 2,500 rows is imported whole", async () => {
    const names = Array.from({ length: 2500 }, (_, index) => `Lote ${index + 1}`);
    const text = c.hasColor
      ? `nome;cor\r\n${names.map((name) => `${name};#123456`).join("\r\n")}`
      : `nome\r\n${names.join("\r\n")}`;
    const added = await imported(text, { branch: ids.messejana });
    expect(added).toHaveLength(2500);
  });

  test("a header other than the template's answers 400 with the expected header, nothing written", async () => {
    for (const wrong of ["name", "descricao;cor", "cor;nome", ""]) {
      const answer = await expectNothingWritten(() => upload(`${wrong}\r\nSala\r\n`));
      const message = `Cabeçalho inválido: a primeira linha deve ser '${header}', como no arquivo modelo.`;
      expect(answer.status, wrong).toBe(400);
      expect(answer.body, wrong).toEqual({ message, fieldErrors: { [c.csvField]: [message] } });
    }
  });

  test("row errors name their line (header = line 1) and nothing is written", async () => {
    const text = c.hasColor
      ? "nome;cor\r\nRisco bom;#aabbcc\r\nRisco azul;azul\r\n;#aabbcc\r\n"
      : `nome\r\nBom nome\r\n${"x".repeat(121)}\r\n`;
    const answer = await expectNothingWritten(() => upload(text));
    expect(answer.status).toBe(400);
    const expected = c.hasColor
      ? [
          "Linha 3: a cor 'azul' é inválida; use o formato #RRGGBB (por exemplo #c62828).",
          "Linha 4: o nome do risco está vazio.",
        ]
      : ["Linha 3: o nome tem mais de 120 caracteres."];
    expect(answer.body).toEqual({ message: expected.join("\n"), fieldErrors: { [c.csvField]: expected } });
  });

  test("a name twice in the file is reported with both lines and nothing is written", async () => {
    const answer = await expectNothingWritten(() =>
      upload(csv(["Repetido no arquivo", "Outro", "REPETIDO NO ARQUIVO"])),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors[c.csvField]).toEqual([
      "Linha 4: 'REPETIDO NO ARQUIVO' está repetido no arquivo (linha 2).",
    ]);
  });

  test("a name the branch already has is reported with its line and nothing of the file is written", async () => {
    const created = await t.post(
      `/api${c.apiPath}`,
      { name: "Já Existe CSV", companyId: ids.aldeota, ...(c.hasColor ? { color: "#000000" } : {}) },
      { token: admin },
    );
    expect(created.status).toBe(201);
    const answer = await expectNothingWritten(() => upload(csv(["Novo do arquivo", "já existe csv", "Outro novo"])));
    expect(answer.status).toBe(400);
    const message = `Linha 3: já existe ${article} ${c.singular} 'Já Existe CSV' nesta filial.`;
    expect(answer.body).toEqual({ message, fieldErrors: { [c.csvField]: [message] } });

    // The same file into another branch is fine; a removed name does not clash.
    await imported(csv(["Novo do arquivo", "já existe csv", "Outro novo"]), { branch: ids.messejana });
    await t.delete(`/api${c.apiPath}/${created.body.id}`, { token: admin });
    await imported(csv(["Já existe CSV"]));
  });

  test("many problems: the first ten and a count of the rest", async () => {
    const names = Array.from({ length: 14 }, () => "Igual");
    const answer = await expectNothingWritten(() => upload(csv(names)));
    expect(answer.status).toBe(400);
    const errors = answer.body.fieldErrors[c.csvField];
    expect(errors).toHaveLength(11);
    expect(errors[0]).toBe("Linha 3: 'Igual' está repetido no arquivo (linha 2).");
    expect(errors[10]).toBe("... e mais 3 erro(s).");
  });

  test("a file with only the header, or an unclosed quote, answers 400", async () => {
    const empty = await expectNothingWritten(() => upload(`${header}\r\n`));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("O arquivo não tem nenhuma linha além do cabeçalho.");
    const quote = await expectNothingWritten(() => upload(`${header}\r\n"Sala sem fim\r\n`));
    expect(quote.status).toBe(400);
    expect(quote.body.message).toBe("Linha 2: aspas sem fechamento.");
  });

  test.each<[string, string | Uint8Array | null, Upload]>([
    ["no file", null, {}],
    ["the file under another field name", "nome\r\nSala\r\n", { field: "csv" }],
    ["an empty file", "", {}],
    [
      "an image",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      { name: "foto.png", type: "image/png" },
    ],
    ["a .txt file", "nome\r\nSala\r\n", { name: "lista.txt", type: "text/plain" }],
  ])(`%s answers 400 '${CSV_INVALID.slice(0, 40)}…'`, async (_case, content, options) => {
    const answer = await expectNothingWritten(() => upload(content, options));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: CSV_INVALID });
  });

  test.each<[string, Upload]>([
    ["a .csv name whatever the type", { name: "LISTA.CSV", type: "" }],
    ["text/csv without the extension", { name: "lista", type: "text/csv" }],
    ["application/vnd.ms-excel (Windows browsers)", { name: "lista", type: "application/vnd.ms-excel" }],
  ])("%s is accepted", async (_case, options) => {
    await imported(csv([`Aceito ${options.type || "sem tipo"} ${options.name}`]), options);
  });

  test(`over ${CSV_MAX_BYTES / 1024 / 1024} MB answers 413 and nothing is written`, async () => {
    const line = c.hasColor ? "Sala grande;#123456\r\n" : "Sala grande\r\n";
    const big = `${header}\r\n${line.repeat(Math.ceil(CSV_MAX_BYTES / line.length) + 1)}`;
    expect(big.length).toBeGreaterThan(CSV_MAX_BYTES);
    const answer = await expectNothingWritten(() => upload(big));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: "O arquivo é grande demais: o limite é de 5 MB por envio." });
  });

  test("another tenant's branch answers 404; no such branch too; nothing is written", async () => {
    for (const branch of [ids.recife, 999_999]) {
      const answer = await expectNothingWritten(() => upload(csv(["Invasor"]), { branch }));
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe("Filial não encontrada");
    }
  });

  test("an inactive branch is refused", async () => {
    const answer = await expectNothingWritten(() => upload(csv(["Na desativada"]), { branch: ids.caucaia }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("A filial está inativa");
  });

  test.each<[string, number | string | null]>([
    ["missing", null],
    ["empty", ""],
    ["not a number", "abc"],
  ])("idEmpresaFilial %s answers 400 'Escolha a filial'", async (_case, branch) => {
    const answer = await expectNothingWritten(() => upload(csv(["Sem filial"]), { branch }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("Escolha a filial");
  });

  test("the same file twice at the same moment: one imports, the other reports the names as present", async () => {
    const text = csv(["Corrida A", "Corrida B"]);
    const answers = await Promise.all([upload(text, { branch: ids.matriz }), upload(text, { branch: ids.matriz })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.fieldErrors[c.csvField]).toEqual([
      `Linha 2: já existe ${article} ${c.singular} 'Corrida A' nesta filial.`,
      `Linha 3: já existe ${article} ${c.singular} 'Corrida B' nesta filial.`,
    ]);
    const live = (await rows()).filter((row) => row.branch_id === ids.matriz && row.name.startsWith("Corrida"));
    expect(live).toHaveLength(2);
  });
});
