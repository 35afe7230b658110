/**
 * 'Cadastro em lote' of pre-registered CPFs (spec 000 §2 'Pre-registered CPFs', §5, §7 POST
 * empresas/saveCSVFuncionarios multipart {csv, idEmpresa, idEmpresaFilial}; docs/organisation.md): the catalogue
 * import's file rules (encodings, separators, header, 'Linha N: ...', all or nothing) with the single
 * pre-registration's row rules and messages. Cross-tenant 404s are also in tests/api/tenancy.test.ts.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { DEMO_FREE_CPFS } from "../../api/db/seed.ts";
import { CSV_INVALID, CSV_MAX_BYTES } from "../../api/domain/csv-import.ts";
import { CPF_CSV_EXAMPLES, CPF_CSV_HEADER } from "../../api/domain/pre-registered-cpf-csv.ts";
import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits, withWrongCheckDigit } from "../support/cpf.ts";
import { demoIds, userByEmail } from "../support/demo.ts";

const t = useTestApi();

const PATH = "/api/empresas/saveCSVFuncionarios";
const ACCOUNTS = ["principal", "admin", "coordenador", "auditor", "cliente", "semnivel", "outra"] as const;
const tokens = {} as Record<(typeof ACCOUNTS)[number], string>;
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

let serial = 0;
/** A fresh valid CPF per call. */
const newCpf = () => cpfWithCheckDigits(`44${String(++serial).padStart(7, "0")}`);
const masked = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

beforeAll(async () => {
  for (const account of ACCOUNTS) tokens[account] = await t.signIn(`${account}@demo.com.br`);
  Object.assign(ids, await demoIds(t.db));
});

/** A template file: the header and one line per row, joined by CRLF as Excel writes them. */
const csv = (rows: string[][], options: { separator?: string; header?: string } = {}) => {
  const separator = options.separator ?? ";";
  const header = options.header ?? CPF_CSV_HEADER.join(separator);
  return `${[header, ...rows.map((cells) => cells.join(separator))].join("\r\n")}\r\n`;
};

type Upload = {
  name?: string;
  type?: string;
  branch?: number | string | null;
  company?: number | string | null;
  field?: string;
  token?: string;
};

function upload(content: string | Uint8Array | null, options: Upload = {}) {
  const form = new FormData();
  if (content !== null) {
    const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
    form.set(
      options.field ?? "csv",
      new File([bytes as Uint8Array<ArrayBuffer>], options.name ?? "cpfs.csv", { type: options.type ?? "text/csv" }),
    );
  }
  if (options.company !== null) form.set("idEmpresa", String(options.company ?? ids.hospital));
  if (options.branch !== null) form.set("idEmpresaFilial", String(options.branch ?? ids.aldeota));
  return t.call("POST", PATH, { token: options.token ?? tokens.admin, form });
}

/** Every pre-registration, removed ones too: what 'nothing written' compares. */
const allRows = () =>
  t.db
    .selectFrom("pre_registered_cpfs")
    .select(["id", "cpf", "company_id", "branch_id", "role_id", "ativo", "deleted_at"])
    .orderBy("id")
    .execute();

async function expectNothingWritten(call: () => Promise<{ status: number; body: any }>) {
  const before = await allRows();
  const answer = await call();
  expect(await allRows()).toEqual(before);
  return answer;
}

/** Imports and answers the rows it added. */
async function imported(content: string | Uint8Array, options: Upload = {}) {
  const before = new Set((await allRows()).map((row) => row.id));
  const answer = await upload(content, options);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  const added = (await allRows()).filter((row) => !before.has(row.id));
  expect(answer.body).toEqual({ created: added.length });
  return added;
}

/** A 400 whose message lists these errors and whose fieldErrors carry them under csv; nothing written. */
async function refused(content: string | Uint8Array, errors: string[], options: Upload = {}) {
  const answer = await expectNothingWritten(() => upload(content, options));
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ message: errors.join("\n"), fieldErrors: { csv: errors } });
}

describe("POST /api/empresas/saveCSVFuncionarios: files that go in", () => {
  test("UTF-8 with BOM, comma separated: every CPF pre-registered, active, in the branch with its level", async () => {
    const cpfs = [newCpf(), newCpf(), newCpf(), newCpf()];
    const text = csv(
      [
        [masked(cpfs[0]), "ASG"],
        [cpfs[1], "coordenador"],
        [` ${masked(cpfs[2])} `, " AUDITOR "],
        [cpfs[3], "Administrador"],
      ],
      { separator: "," },
    );
    const added = await imported(`\uFEFF${text}`, { branch: ids.messejana });
    expect(added.map((row) => [row.cpf, row.role_id])).toEqual([
      [cpfs[0], 5],
      [cpfs[1], 3],
      [cpfs[2], 4],
      [cpfs[3], 2],
    ]);
    for (const row of added)
      expect(row).toMatchObject({ company_id: ids.hospital, branch_id: ids.messejana, ativo: true, deleted_at: null });

    // Listed afterwards, as the single pre-registration's rows.
    const list = await t.get(`/api/empresas/funcionarios/${ids.hospital}?q=${cpfs[0]}&size=0`, {
      token: tokens.admin,
    });
    expect(list.body.items).toEqual([
      expect.objectContaining({ CPF: cpfs[0], NOME_FILIAL: "Filial Messejana", ATIVO: true, roleId: 5 }),
    ]);
  });

  test("Windows-1252, semicolon separated (Excel pt-BR): header 'CPF;Nível' in other case, an extra column", async () => {
    const [first, second] = [newCpf(), newCpf()];
    // Latin-1 bytes equal Windows-1252 for these letters: not valid UTF-8, so the file is read as Windows-1252.
    const text = `CPF;Nível;Observação\r\n${masked(first)};Coordenador;Açougue\r\n${second};asg;Jardim São José\r\n`;
    const bytes = Buffer.from(text, "latin1");
    const added = await imported(new Uint8Array(bytes));
    expect(added.map((row) => [row.cpf, row.role_id])).toEqual([
      [first, 3],
      [second, 5],
    ]);
  });

  test("tab separated, LF line ends, blank lines and quoted cells", async () => {
    const [first, second] = [newCpf(), newCpf()];
    const added = await imported(`cpf\tnivel\n\n"${masked(first)}"\t"ASG"\n  \n${second}\tAuditor\n`, {
      branch: ids.matriz,
    });
    expect(added.map((row) => row.cpf)).toEqual([first, second]);
  });

  test("the template as 'Baixar Modelo' writes it goes in (its sample rows); extra columns are ignored", async () => {
    const added = await imported(`\uFEFF${csv(CPF_CSV_EXAMPLES.map((row) => [...row]))}`);
    expect(added.map((row) => [row.cpf, row.role_id])).toEqual([
      ["52998224725", 5],
      ["11144477735", 3],
    ]);
    const cpf = newCpf();
    const more = await imported(`cpf;nivel;nome\r\n${cpf};ASG;Maria\r\n`);
    expect(more.map((row) => row.cpf)).toEqual([cpf]);
  });

  test("a removed pre-registration's CPF may be pre-registered again", async () => {
    const cpf = newCpf();
    await imported(csv([[cpf, "ASG"]]));
    const removed = await t.put(
      "/api/empresas/ativaInativaDeleteFuncionarios",
      { acao: ["2"], cpf: [cpf] },
      { token: tokens.admin },
    );
    expect(removed.status).toBe(200);
    const again = await imported(csv([[cpf, "Coordenador"]]), { branch: ids.matriz });
    expect(again).toEqual([expect.objectContaining({ cpf, branch_id: ids.matriz, role_id: 3 })]);
  });

  test("a file of 2,500 rows goes in whole (the Administrador (P) too)", async () => {
    const rows = Array.from({ length: 2500 }, () => [newCpf(), "ASG"]);
    const added = await imported(csv(rows), { token: tokens.principal, branch: ids.matriz });
    expect(added).toHaveLength(2500);
  });
});

describe("POST /api/empresas/saveCSVFuncionarios: rows refused, nothing written", () => {
  test("every row rule names its line (header = line 1) with the single form's messages, letter for letter", async () => {
    const good = newCpf();
    const repeated = newCpf();
    const text = csv([
      [good, "ASG"],
      ["", "ASG"],
      ["123.456.789", "ASG"],
      [withWrongCheckDigit(newCpf()), "ASG"],
      [newCpf(), ""],
      [newCpf(), "Gerente"],
      [repeated, "ASG"],
      [masked(repeated), "Auditor"],
    ]);
    await refused(text, [
      "Linha 3: CPF do usuário é obrigatório",
      "Linha 4: Favor inserir um CPF válido",
      "Linha 5: Esse CPF não é válido!",
      "Linha 6: Nível de acesso é obrigatório",
      "Linha 7: o nível de acesso 'Gerente' é inválido; use Administrador, Coordenador, Auditor ou ASG.",
      `Linha 9: o CPF ${masked(repeated)} está repetido no arquivo (linha 8).`,
    ]);
    expect(await allRows()).not.toContainEqual(expect.objectContaining({ cpf: good }));
  });

  test("blank lines count: a problem after them names the spreadsheet's line", async () => {
    await refused(`cpf;nivel\r\n\r\n${newCpf()};ASG\r\n;\r\n12345678901234;ASG\r\n`, [
      "Linha 5: Favor inserir um CPF válido",
    ]);
  });

  test("a CPF already pre-registered (active, inactive) or a user's; another tenant's named by no company", async () => {
    const otherTenant = newCpf();
    await imported(csv([[otherTenant, "ASG"]]), { token: tokens.outra, company: ids.other, branch: ids.recife });
    const coordinator = await userByEmail(t.db, "coordenador@demo.com.br");
    const otherUser = await userByEmail(t.db, "outra@demo.com.br");
    const fresh = newCpf();
    const neutral = "CPF indisponível para cadastro. Se o número estiver correto, procure o suporte.";
    await refused(
      csv([
        [fresh, "ASG"],
        [masked(DEMO_FREE_CPFS.asg), "ASG"],
        ["866.750.872-15", "ASG"], // the demo's inactive pre-registration
        [otherTenant, "Coordenador"],
        [coordinator.cpf, "Coordenador"],
        [otherUser.cpf, "ASG"],
      ]),
      [
        "Linha 3: CPF já pré-cadastrado",
        "Linha 4: CPF já pré-cadastrado",
        `Linha 5: ${neutral}`,
        "Linha 6: Já existe um usuário cadastrado com este CPF",
        `Linha 7: ${neutral}`,
      ],
    );
    expect(await allRows()).not.toContainEqual(expect.objectContaining({ cpf: fresh }));
  });

  test("many problems: the first ten and a count of the rest", async () => {
    const answer = await expectNothingWritten(() => upload(csv(Array.from({ length: 14 }, () => ["1", "ASG"]))));
    expect(answer.status).toBe(400);
    const errors = answer.body.fieldErrors.csv;
    expect(errors).toHaveLength(11);
    expect(errors[0]).toBe("Linha 2: Favor inserir um CPF válido");
    expect(errors[10]).toBe("... e mais 4 erro(s).");
  });

  test("a header other than the template's, a file with only the header, an unclosed quote", async () => {
    const header = "Cabeçalho inválido: a primeira linha deve ser 'cpf;nivel', como no arquivo modelo.";
    for (const wrong of ["cpf", "nivel;cpf", "documento;nivel", ""])
      await refused(`${wrong}\r\n${newCpf()};ASG\r\n`, [header]);
    await refused("cpf;nivel\r\n", ["O arquivo não tem nenhuma linha além do cabeçalho."]);
    await refused(`cpf;nivel\r\n"${newCpf()};ASG\r\n`, ["Linha 2: aspas sem fechamento."]);
  });

  test("the same file twice at the same moment: one goes in, the other names the CPFs as pre-registered", async () => {
    const text = csv([
      [newCpf(), "ASG"],
      [newCpf(), "ASG"],
    ]);
    const answers = await Promise.all([upload(text), upload(text)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.fieldErrors.csv).toEqual([
      "Linha 2: CPF já pré-cadastrado",
      "Linha 3: CPF já pré-cadastrado",
    ]);
  });
});

describe("POST /api/empresas/saveCSVFuncionarios: the file, the company, the branch, the caller", () => {
  test.each<[string, string | Uint8Array | null, Upload]>([
    ["no file", null, {}],
    [
      "the file under another field name",
      `cpf;nivel\r\n${cpfWithCheckDigits("440000000")};ASG\r\n`,
      { field: "arquivo" },
    ],
    ["an empty file", "", {}],
    [
      "an image",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      { name: "foto.png", type: "image/png" },
    ],
    [
      "a .txt file",
      `cpf;nivel\r\n${cpfWithCheckDigits("440000000")};ASG\r\n`,
      { name: "cpfs.txt", type: "text/plain" },
    ],
  ])(`%s answers 400 '${CSV_INVALID.slice(0, 40)}…'`, async (_case, content, options) => {
    const answer = await expectNothingWritten(() => upload(content, options));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: CSV_INVALID });
  });

  test.each<[string, Upload]>([
    ["a .csv name whatever the type", { name: "CPFS.CSV", type: "" }],
    ["application/vnd.ms-excel (Windows browsers)", { name: "cpfs", type: "application/vnd.ms-excel" }],
  ])("%s is accepted", async (_case, options) => {
    await imported(csv([[newCpf(), "ASG"]]), options);
  });

  test(`over ${CSV_MAX_BYTES / 1024 / 1024} MB answers 413 and nothing is written`, async () => {
    const line = "529.982.247-25;ASG\r\n";
    const big = `cpf;nivel\r\n${line.repeat(Math.ceil(CSV_MAX_BYTES / line.length) + 1)}`;
    const answer = await expectNothingWritten(() => upload(big));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: "O arquivo é grande demais: o limite é de 5 MB por envio." });
  });

  test("idEmpresaFilial or idEmpresa missing or not a number answers 400 with the field", async () => {
    for (const branch of [null, "", "abc"]) {
      const answer = await expectNothingWritten(() => upload(csv([[newCpf(), "ASG"]]), { branch }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        message: "Filial é obrigatória",
        fieldErrors: { idEmpresaFilial: ["Filial é obrigatória"] },
      });
    }
    const answer = await expectNothingWritten(() => upload(csv([[newCpf(), "ASG"]]), { company: null }));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: "Empresa é obrigatória",
      fieldErrors: { idEmpresa: ["Empresa é obrigatória"] },
    });
  });

  test("another tenant's branch or company, or no such branch, answers 404 whatever the file; nothing is written", async () => {
    for (const options of [
      { branch: ids.recife },
      { company: ids.other },
      { company: ids.other, branch: ids.recife },
      { branch: 999_999 },
    ]) {
      const answer = await expectNothingWritten(() => upload(null, options));
      expect(answer.status, JSON.stringify(options)).toBe(404);
      expect((await expectNothingWritten(() => upload(csv([[newCpf(), "ASG"]]), options))).status).toBe(404);
    }
  });

  test("an inactive branch is refused: 'A filial está inativa'", async () => {
    const answer = await expectNothingWritten(() => upload(csv([[newCpf(), "ASG"]]), { branch: ids.caucaia }));
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("A filial está inativa");
  });

  test("roles: only 1 and 2 write; 3, no role, 4 and 7 are refused with 'Permissão negada!'", async () => {
    for (const account of ["coordenador", "semnivel", "auditor", "cliente"] as const) {
      const answer = await expectNothingWritten(() => upload(csv([[newCpf(), "ASG"]]), { token: tokens[account] }));
      expect(answer.status, account).toBe(403);
      expect(answer.body.message).toBe("Permissão negada!");
    }
  });

  test("without a token: 401", async () => {
    const form = new FormData();
    form.set("csv", new File([csv([[newCpf(), "ASG"]])], "cpfs.csv", { type: "text/csv" }));
    expect((await t.call("POST", PATH, { form })).status).toBe(401);
  });
});
