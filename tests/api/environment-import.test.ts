/**
 * The spreadsheet importer of environments (issue 10; docs/environments.md 'Importing environments'):
 * POST /api/environments/import, multipart { file, companyId = the branch }. An .xlsx (first sheet) or a CSV in UTF-8
 * or Windows-1252 with ';' or ','; every row checked first, then all written in one transaction or none.
 */
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, test } from "vitest";

import { IMPORT_HEADER, IMPORT_TEXTS } from "../../api/domain/environment-import.ts";
import { EnvironmentDetail } from "../../api/routes/environments.ts";
import { zipInflatedSize } from "../../api/services/environment-import.ts";
import { useTestApi } from "../support/api.ts";
import { demoIds } from "../support/demo.ts";
import { tinyPng } from "../support/files.ts";

const t = useTestApi();

let admin: string;
let ids: Awaited<ReturnType<typeof demoIds>>;

beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
  ids = await demoIds(t.db);
});

type Upload = { name?: string; type?: string; branch?: number | string | null; token?: string };

function upload(content: string | Uint8Array | null, options: Upload = {}) {
  const form = new FormData();
  if (content !== null) {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    form.set(
      "file",
      new File([bytes as Uint8Array<ArrayBuffer>], options.name ?? "ambientes.csv", {
        type: options.type ?? "text/csv",
      }),
    );
  }
  if (options.branch !== null) form.set("companyId", String(options.branch ?? ids.aldeota));
  return t.call("POST", "/api/environments/import", { token: options.token ?? admin, form });
}

/** An .xlsx with these rows under the template's header (or another first row), built with exceljs. */
async function xlsx(rows: (string | number)[][], options: { header?: string[]; extraSheetFirst?: boolean } = {}) {
  const workbook = new ExcelJS.Workbook();
  if (options.extraSheetFirst) workbook.addWorksheet("Capa").addRow(["Não é aqui"]);
  const sheet = workbook.addWorksheet("Ambientes");
  sheet.addRow(options.header ?? IMPORT_HEADER);
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Live environments of a branch, with their links, as the tests compare them before and after a refusal. */
async function snapshot(branchId: number) {
  const environments = await t.db
    .selectFrom("environments")
    .select(["id", "name"])
    .where("branch_id", "=", branchId)
    .orderBy("id")
    .execute();
  const environmentIds = environments.map((row) => row.id);
  const count = async (table: "environment_risks" | "environment_procedures") =>
    (
      await t.db
        .selectFrom(table)
        .select(({ fn }) => fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;
  return {
    environments,
    environmentIds,
    risks: await count("environment_risks"),
    procedures: await count("environment_procedures"),
  };
}

async function expectNothingWritten(branchId: number, call: () => Promise<{ status: number; body: any }>) {
  const before = await snapshot(branchId);
  const answer = await call();
  expect(await snapshot(branchId)).toEqual(before);
  return answer;
}

/** The environment named so in the branch, in the nested form. */
async function environmentNamed(branchId: number, name: string) {
  const row = await t.db
    .selectFrom("environments")
    .select("id")
    .where("branch_id", "=", branchId)
    .where("name", "=", name)
    .where("deleted_at", "is", null)
    .executeTakeFirstOrThrow();
  const answer = await t.get(`/api/environments/${row.id}`, { token: admin });
  expect(answer.status).toBe(200);
  return EnvironmentDetail.parse(answer.body);
}

const names = (list: { name: string }[]) => list.map((item) => item.name);

describe("POST /api/environments/import", () => {
  test("an .xlsx: every row is created in the branch with its category, sector, floor, risks and procedures", async () => {
    const file = await xlsx([
      [
        "Xlsx Banheiro 1",
        "banheiro",
        "RECEPCAO",
        "Térreo",
        "Biológico; quimico",
        "Limpar piso; Recolher lixo",
        "Repor papel toalha",
      ],
      [],
      ["Xlsx Sala 2", "Sala", "UTI", 2, "Físico", "", "Limpar vidros"],
    ]);
    const answer = await upload(file, { name: "ambientes.xlsx", type: XLSX_TYPE });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({ created: 2 });

    const first = await environmentNamed(ids.aldeota, "Xlsx Banheiro 1");
    expect(first).toMatchObject({
      andar: "Térreo",
      companyId: ids.aldeota,
      Categoria: { name: "Banheiro" },
      Setor: { name: "Recepção" },
    });
    expect(names(first.Riscos)).toEqual(["Biológico", "Químico"]);
    expect(first.Procedures.map(({ name, mandatory }) => [name, mandatory])).toEqual([
      ["Limpar piso", true],
      ["Recolher lixo", true],
      ["Repor papel toalha", false],
    ]);
    const second = await environmentNamed(ids.aldeota, "Xlsx Sala 2");
    expect(second).toMatchObject({ andar: "2", Categoria: { name: "Sala" }, Setor: { name: "UTI" } });
    expect(second.procedures).toEqual([]);
    expect(names(second.Procedures)).toEqual(["Limpar vidros"]);

    const list = await t.get(`/api/environments?filialId=${ids.aldeota}&q=xlsx&size=20`, { token: admin });
    expect(list.body.items.map((item: { AMBIENTE_NOME: string }) => item.AMBIENTE_NOME)).toEqual([
      "Xlsx Banheiro 1",
      "Xlsx Sala 2",
    ]);
  });

  test("the .xlsx's first sheet is read, whatever it is called; the file name does not matter", async () => {
    const file = await xlsx([["Primeira aba", "Sala", "UTI", "Térreo", "Físico", "Limpar piso", ""]], {
      extraSheetFirst: true,
    });
    const answer = await upload(file, { name: "sem-extensao", type: "application/octet-stream" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatch(/^Cabeçalho inválido: faltam as colunas "Nome do ambiente", /);
  });

  test("CSV in UTF-8 with BOM, comma separated, lists quoted with ';'", async () => {
    const text =
      "\uFEFFNome do ambiente,Categoria,Setor,Andar,Riscos,Procedimentos obrigatórios,Procedimentos opcionais\r\n" +
      'Csv Coração 1,Enfermaria,Ambulatório,1º andar,"Biológico; Perfurocortante",Higienizar pias,"Repor sabonete;Limpar piso"\r\n';
    const answer = await upload(text);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const row = await environmentNamed(ids.aldeota, "Csv Coração 1");
    expect(names(row.Riscos)).toEqual(["Biológico", "Perfurocortante"]);
    expect(row.Procedures.map((p) => `${p.name}:${p.mandatory}`)).toEqual([
      "Higienizar pias:true",
      "Limpar piso:false",
      "Repor sabonete:false",
    ]);
  });

  test("CSV in Windows-1252 (Excel pt-BR), ';' separated, comma lists as the list export writes them", async () => {
    const text =
      "NOME DO AMBIENTE;CATEGORIA;SETOR;ANDAR;RISCOS;PROCEDIMENTOS OBRIGATORIOS;PROCEDIMENTOS OPCIONAIS\r\n" +
      "Csv Área de serviço;Copa;Copa e Cozinha;Térreo;Químico, Ergonômico;Limpar piso, Desinfetar superfícies;\r\n" +
      "Csv Escritório 2;Escritório;Administrativo;4º andar;Físico;;Limpar vidros\r\n";
    const answer = await upload(new Uint8Array(Buffer.from(text, "latin1")));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body).toEqual({ created: 2 });
    const row = await environmentNamed(ids.aldeota, "Csv Área de serviço");
    expect(row).toMatchObject({ Categoria: { name: "Copa" }, Setor: { name: "Copa e Cozinha" }, andar: "Térreo" });
    expect(names(row.Riscos)).toEqual(["Ergonômico", "Químico"]);
    expect(names(row.Procedures)).toEqual(["Desinfetar superfícies", "Limpar piso"]);
  });

  test("all or nothing: one bad row refuses the file, lists every error and writes nothing", async () => {
    const file = await xlsx([
      ["Tudo ou nada 1", "Sala", "UTI", "Térreo", "Físico", "Limpar piso", ""],
      ["Tudo ou nada 2", "Banheiros", "UTI", "Térreo", "Físico", "Limpar piso", ""],
      ["", "Sala", "UTI", "Térreo", "Físico", "Limpar piso", ""],
      ["Tudo ou nada 4", "Sala", "UTI", "", "", "Limpar piso", "limpar PISO"],
    ]);
    const answer = await expectNothingWritten(ids.aldeota, () => upload(file, { name: "a.xlsx", type: XLSX_TYPE }));
    const errors = [
      'Linha 3: categoria "Banheiros" não encontrada',
      "Linha 4: nome do ambiente é obrigatório",
      "Linha 5: nome do andar é obrigatório",
      'Linha 5: informe ao menos um risco na coluna "Riscos"',
      'Linha 5: "Limpar piso" está nas duas colunas de procedimentos; um procedimento não pode ser obrigatório e opcional ao mesmo tempo',
    ];
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: "A planilha tem 5 erro(s); nenhum ambiente foi importado.",
      errors,
      fieldErrors: { file: errors },
    });
  });

  test("duplicates within the file and against the branch's environments (case-insensitive) are refused", async () => {
    const text =
      `${IMPORT_HEADER.join(";")}\r\n` +
      "Duplicado A;Sala;UTI;Térreo;Físico;Limpar piso;\r\n" +
      "DUPLICADO a;Sala;UTI;Térreo;Físico;Limpar piso;\r\n" +
      "recepção PRINCIPAL;Sala;UTI;Térreo;Físico;Limpar piso;\r\n";
    const answer = await expectNothingWritten(ids.aldeota, () => upload(text));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      'Linha 3: ambiente "DUPLICADO a" repetido na planilha (linha 2)',
      'Linha 4: já existe um ambiente cadastrado com o mesmo nome e empresa ("Recepção principal")',
    ]);
    // Another branch of the same company may have the same name (the rule is per branch).
    const other = await upload(
      `${IMPORT_HEADER.join(";")}\r\nRecepção principal 2;Sala;UTI;Térreo;Físico;Limpar piso;\r\n`,
      {
        branch: ids.messejana,
      },
    );
    expect(other.status, JSON.stringify(other.body)).toBe(201);
  });

  test("names are the branch's own: Messejana's shorter catalogue does not have 'Copa'", async () => {
    const text = `${IMPORT_HEADER.join(";")}\r\nMessejana copa;Copa;UTI;Térreo;Físico;Limpar piso;\r\n`;
    const answer = await expectNothingWritten(ids.messejana, () => upload(text, { branch: ids.messejana }));
    expect(answer.body.errors).toEqual(['Linha 2: categoria "Copa" não encontrada']);
  });

  test("another tenant's branch answers 404 and writes nothing", async () => {
    const text = `${IMPORT_HEADER.join(";")}\r\nInvasor;Sala;UTI;Térreo;Físico;Limpar piso;\r\n`;
    const answer = await expectNothingWritten(ids.recife, () => upload(text, { branch: ids.recife }));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe("Filial não encontrada");
    const missing = await upload(text, { branch: 999_999 });
    expect(missing.status).toBe(404);
  });

  test("roleId 3 (coordinator) and others without write rights get 403; no token 401", async () => {
    const text = `${IMPORT_HEADER.join(";")}\r\nCoordenador;Sala;UTI;Térreo;Físico;Limpar piso;\r\n`;
    for (const email of ["coordenador", "auditor", "semnivel", "cliente"]) {
      const token = await t.signIn(`${email}@demo.com.br`);
      const answer = await expectNothingWritten(ids.aldeota, () => upload(text, { token }));
      expect(answer.status, email).toBe(403);
    }
    const principal = await t.signIn("principal@demo.com.br");
    const allowed = await upload(text, { token: principal });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    const anonymous = await t.call("POST", "/api/environments/import", { form: new FormData() });
    expect(anonymous.status).toBe(401);
  });

  test("the branch: missing or not a number is 400, an inactive branch 400", async () => {
    const text = `${IMPORT_HEADER.join(";")}\r\nSem filial;Sala;UTI;Térreo;Físico;Limpar piso;\r\n`;
    for (const branch of [null, "", "abc", "99999999999", "-3"]) {
      const answer = await upload(text, { branch });
      expect(answer.status, String(branch)).toBe(400);
      expect(answer.body).toEqual({
        message: "Escolha a empresa",
        errors: ["Escolha a empresa"],
        fieldErrors: { companyId: ["Escolha a empresa"] },
      });
    }
    const inactive = await upload(text, { branch: ids.caucaia });
    expect(inactive.status).toBe(400);
    expect(inactive.body).toEqual({ message: "A filial está inativa", errors: ["A filial está inativa"] });
  });

  test("too many rows: 5,001 rows are refused whole, in CSV and in .xlsx; 5,000 are imported", async () => {
    const row = (n: number) => [`Limite ${n}`, "Sala", "UTI", "Térreo", "Físico", "Limpar piso", ""];
    const rows = Array.from({ length: 5001 }, (_, n) => row(n + 1));
    const message = "O arquivo tem 5.001 linhas de ambientes; o limite é de 5.000 por arquivo.";
    const csvText = [IMPORT_HEADER, ...rows].map((cells) => cells.join(";")).join("\r\n");
    const csv = await expectNothingWritten(ids.messejana, () => upload(csvText, { branch: ids.messejana }));
    expect(csv.body).toEqual({ message, errors: [message], fieldErrors: { file: [message] } });
    const sheet = await expectNothingWritten(ids.messejana, async () =>
      upload(await xlsx(rows), { name: "grande.xlsx", branch: ids.messejana }),
    );
    expect(sheet.body.errors).toEqual([message]);

    // How fast is bench/environments.ts's business (BENCH_ONLY=environments), not a test's: a busy CI machine took 26 s.
    const all = await upload(await xlsx(rows.slice(0, 5000)), { name: "limite.xlsx", branch: ids.messejana });
    expect(all.status, JSON.stringify(all.body)).toBe(201);
    expect(all.body).toEqual({ created: 5000 });
    const page = await t.get(`/api/environments?filialId=${ids.messejana}&q=limite&size=20`, { token: admin });
    expect(page.body.total).toBe(5000);
  }, 60_000);

  test("errors are capped at 50 listed, the others counted", async () => {
    const rows = Array.from({ length: 70 }, (_, n) => [
      `Sem categoria ${n}`,
      "",
      "UTI",
      "Térreo",
      "Físico",
      "Limpar piso",
      "",
    ]);
    const answer = await expectNothingWritten(ids.aldeota, async () => upload(await xlsx(rows), { name: "x.xlsx" }));
    expect(answer.body.message).toBe("A planilha tem 70 erro(s); nenhum ambiente foi importado.");
    expect(answer.body.errors).toHaveLength(51);
    expect(answer.body.errors[0]).toBe("Linha 2: categoria é obrigatória");
    expect(answer.body.errors[50]).toBe("... e mais 20 erro(s).");
  });

  test("a file that is not a spreadsheet is refused: an image, a PDF, an old .xls, a Word-like zip, no file", async () => {
    const notSpreadsheet = { message: IMPORT_TEXTS.fileRequired, errors: [IMPORT_TEXTS.fileRequired] };
    const png = await expectNothingWritten(ids.aldeota, () =>
      upload(tinyPng(), { name: "foto.csv", type: "text/csv" }),
    );
    expect(png.status).toBe(400);
    expect(png.body).toMatchObject(notSpreadsheet);

    const pdf = await upload(new Uint8Array(Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n")), {
      name: "a.pdf",
      type: "application/pdf",
    });
    expect(pdf.status).toBe(400);
    expect(pdf.body).toMatchObject(notSpreadsheet);

    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const xls = await upload(cfb, { name: "antigo.xls", type: "application/vnd.ms-excel" });
    expect(xls.status).toBe(400);
    expect(xls.body.errors).toEqual([IMPORT_TEXTS.oldExcel]);

    const zip = await upload(plainZip("word/document.xml", "<w:document/>"), { name: "carta.docx" });
    expect(zip.status).toBe(400);
    expect(zip.body).toMatchObject(notSpreadsheet);

    const none = await upload(null);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject(notSpreadsheet);
    const empty = await upload("");
    expect(empty.body).toMatchObject(notSpreadsheet);

    const broken = await xlsx([]);
    const truncated = await upload(broken.subarray(0, broken.length - 40), { name: "quebrado.xlsx" });
    expect(truncated.status).toBe(400);
  });

  test("an .xlsx that would inflate beyond 32 MB is refused before it is read", async () => {
    // A real workbook whose central directory says one part inflates to 40 MB (a zip bomb declares as much).
    const bomb = Buffer.from(await xlsx([["Bomba", "Sala", "UTI", "Térreo", "Físico", "Limpar piso", ""]]));
    const entry = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(40 * 1024 * 1024, entry + 24);
    expect(zipInflatedSize(bomb)).toBeGreaterThan(40 * 1024 * 1024);
    const answer = await expectNothingWritten(ids.aldeota, () => upload(new Uint8Array(bomb), { name: "bomba.xlsx" }));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([IMPORT_TEXTS.tooLarge]);
    expect(zipInflatedSize(new Uint8Array(100))).toBeNull();
  });

  test("a header other than the template's, or no rows, is named", async () => {
    const header = await upload("nome;categoria\r\nSala;Sala\r\n");
    expect(header.status).toBe(400);
    expect(header.body.errors[0]).toMatch(/^Cabeçalho inválido: faltam as colunas "Setor", "Andar", "Riscos"/);
    const onlyHeader = await upload(await xlsx([]), { name: "vazio.xlsx" });
    expect(onlyHeader.body.errors).toEqual(["O arquivo não tem nenhuma linha além do cabeçalho."]);
  });

  test("the route is in the OpenAPI document", async () => {
    const doc = await t.get("/api/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.paths["/api/environments/import"].post.responses).toHaveProperty("201");
  });
});

/** A zip of one stored file (no spreadsheet parts): a Word document or any other archive. */
function plainZip(name: string, content: string) {
  const fileName = Buffer.from(name);
  const data = Buffer.from(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + fileName.length, 12);
  end.writeUInt32LE(30 + fileName.length + data.length, 16);
  return new Uint8Array(Buffer.concat([local, fileName, data, central, fileName, end]));
}
