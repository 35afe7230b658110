/**
 * What differs between the four catalogues, through the API, with the texts written out per kind (a changed word
 * or gender fails here): the colour field and column (risks only), the messages that name the kind ('o nome da
 * categoria', 'já existe uma categoria', 'Categoria não encontrada'), the CSV header, and the delete rule the web
 * app follows (procedures by id, the others with the item as body). The browser tests drive sectors (and risks for
 * the colour) only; this file and tests/unit/catalogue-kinds.test.ts hold what they checked for the other kinds.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { CATALOGUE_KINDS, CATALOGUES, type CatalogueKind } from "../../api/domain/catalogues.ts";
import { useTestApi } from "../support/api.ts";
import { catalogueRows } from "../support/catalogues.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

let admin: string;
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
  Object.assign(ids, await demoIds(t.db));
});

const EXPECTED: Record<
  CatalogueKind,
  {
    apiPath: string;
    csvPath: string;
    csvField: string;
    hasColor: boolean;
    deleteById: boolean;
    nameRequired: string;
    duplicate: string;
    notFound: string;
    csvHeader: string;
    /** The CSV line error for a name the branch already has. */
    alreadyInBranch: (line: number, name: string) => string;
    emptyName: (line: number) => string;
  }
> = {
  setores: {
    apiPath: "/setor",
    csvPath: "/cadastroViaCSV/setor",
    csvField: "csvSetores",
    hasColor: false,
    deleteById: false,
    nameRequired: "Nome do setor é obrigatório",
    duplicate: "Já existe um setor cadastrado com o mesmo nome e empresa",
    notFound: "Setor não encontrado",
    csvHeader: "nome",
    alreadyInBranch: (line, name) => `Linha ${line}: já existe um setor '${name}' nesta filial.`,
    emptyName: (line) => `Linha ${line}: o nome do setor está vazio.`,
  },
  riscos: {
    apiPath: "/risco",
    csvPath: "/cadastroViaCSV/risco",
    csvField: "csvRiscos",
    hasColor: true,
    deleteById: false,
    nameRequired: "Nome do risco é obrigatório",
    duplicate: "Já existe um risco cadastrado com o mesmo nome e empresa",
    notFound: "Risco não encontrado",
    csvHeader: "nome;cor",
    alreadyInBranch: (line, name) => `Linha ${line}: já existe um risco '${name}' nesta filial.`,
    emptyName: (line) => `Linha ${line}: o nome do risco está vazio.`,
  },
  procedimentos: {
    apiPath: "/procedures",
    csvPath: "/cadastroViaCSV/procedures",
    csvField: "csvProcedures",
    hasColor: false,
    deleteById: true,
    nameRequired: "Nome do procedimento é obrigatório",
    duplicate: "Já existe um procedimento cadastrado com o mesmo nome e empresa",
    notFound: "Procedimento não encontrado",
    csvHeader: "nome",
    alreadyInBranch: (line, name) => `Linha ${line}: já existe um procedimento '${name}' nesta filial.`,
    emptyName: (line) => `Linha ${line}: o nome do procedimento está vazio.`,
  },
  categorias: {
    apiPath: "/categorias",
    csvPath: "/cadastroViaCSV/categorias",
    csvField: "csvCategorias",
    hasColor: false,
    deleteById: false,
    nameRequired: "Nome da categoria é obrigatório",
    duplicate: "Já existe uma categoria cadastrada com o mesmo nome e empresa",
    notFound: "Categoria não encontrada",
    csvHeader: "nome",
    alreadyInBranch: (line, name) => `Linha ${line}: já existe uma categoria '${name}' nesta filial.`,
    emptyName: (line) => `Linha ${line}: o nome da categoria está vazio.`,
  },
};

describe.each(CATALOGUE_KINDS)("%s", (kind) => {
  const e = EXPECTED[kind];
  const c = CATALOGUES[kind];
  const base = `/api${e.apiPath}`;

  test("the table of differences says what this file expects", () => {
    const { apiPath, csvPath, csvField, hasColor, deleteById } = c;
    expect({ apiPath, csvPath, csvField, hasColor, deleteById }).toEqual({
      apiPath: e.apiPath,
      csvPath: e.csvPath,
      csvField: e.csvField,
      hasColor: e.hasColor,
      deleteById: e.deleteById,
    });
  });

  const create = async (name: string, branch: number, color?: string) => {
    const answer = await t.post(base, { name, companyId: branch, ...(color ? { color } : {}) }, { token: admin });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { id: number; name: string; color: string | null };
  };

  test(
    e.hasColor
      ? "the colour is required, kept in lower case, listed, and sorts the list (sort=cor)"
      : "no colour: one sent is ignored, the list's color is null, sort=cor falls back to the name",
    async () => {
      if (e.hasColor) {
        const missing = await t.post(base, { name: "Kinds sem cor", companyId: ids.messejana }, { token: admin });
        expect(missing.status).toBe(400);
        expect(missing.body.fieldErrors).toEqual({ color: ["Escolha a cor do risco"] });
      }
      // Names and colours in opposite orders: the colour order is not the name order.
      await create("Kinds Alfa", ids.messejana, "#FF0000");
      await create("Kinds Beta", ids.messejana, "#00FF00");
      await create("Kinds Gama", ids.messejana, "#0000FF");
      const list = async (dir: string) =>
        (await t.get(`${base}?filialId=${ids.messejana}&q=Kinds&sort=cor&dir=${dir}`, { token: admin })).body.items as {
          name: string;
          color: string | null;
        }[];
      const ascending = await list("asc");
      if (e.hasColor) {
        expect(ascending).toMatchObject([
          { name: "Kinds Gama", color: "#0000ff" },
          { name: "Kinds Beta", color: "#00ff00" },
          { name: "Kinds Alfa", color: "#ff0000" },
        ]);
        expect((await list("desc")).map((item) => item.name)).toEqual(["Kinds Alfa", "Kinds Beta", "Kinds Gama"]);
      } else {
        expect(ascending).toMatchObject([
          { name: "Kinds Alfa", color: null },
          { name: "Kinds Beta", color: null },
          { name: "Kinds Gama", color: null },
        ]);
        expect((await list("desc")).map((item) => item.name)).toEqual(["Kinds Gama", "Kinds Beta", "Kinds Alfa"]);
        expect((await catalogueRows(t.db, kind)).find((row) => row.name === "Kinds Alfa")?.color).toBeUndefined();
      }
    },
  );

  test("the messages name the kind with its gender: blank name, duplicate name, not found", async () => {
    const color = e.hasColor ? "#123456" : undefined;
    const blank = await t.post(base, { name: " ", companyId: ids.aldeota, color }, { token: admin });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(e.nameRequired);

    await create("Kinds Repetido", ids.aldeota, color);
    const again = await t.post(base, { name: "KINDS REPETIDO", companyId: ids.aldeota, color }, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: e.duplicate, fieldErrors: { name: [e.duplicate] } });

    const missing = await t.put(`${base}/999999`, { name: "Ninguém", color }, { token: admin });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(e.notFound);
  });

  test(`the web app's delete (${e.deleteById ? "by id" : "with the item as body"}) is a soft delete`, async () => {
    const item = await create("Kinds Remover", ids.aldeota, e.hasColor ? "#654321" : undefined);
    const answer = c.deleteById
      ? await t.delete(`${base}/${item.id}`, { token: admin })
      : await t.delete(base, { token: admin, json: item });
    expect(answer.status, JSON.stringify(answer.body)).toBe(204);
    const row = (await catalogueRows(t.db, kind)).find((r) => r.id === item.id);
    expect(row?.deleted_at).toBeInstanceOf(Date);
  });

  describe(`CSV import (POST /api${e.csvPath}, field ${e.csvField})`, () => {
    const upload = (text: string) => {
      const form = new FormData();
      form.set(e.csvField, new File([new TextEncoder().encode(text)], "lista.csv", { type: "text/csv" }));
      form.set("idEmpresaFilial", String(ids.matriz));
      return t.call("POST", `/api${e.csvPath}`, { token: admin, form });
    };
    const line = (name: string, color = "#c62828") => (e.hasColor ? `${name};${color}` : name);

    test(`the header is '${e.csvHeader}'`, async () => {
      const other = e.hasColor ? "nome" : "cor;nome";
      const wrong = await upload(`${other}\r\nKinds Cabeçalho\r\n`);
      const message = `Cabeçalho inválido: a primeira linha deve ser '${e.csvHeader}', como no arquivo modelo.`;
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ message, fieldErrors: { [e.csvField]: [message] } });
    });

    test("line errors name the kind with its gender: an empty name, a name the branch already has", async () => {
      await create("Kinds Já Na Filial", ids.matriz, e.hasColor ? "#abcdef" : undefined);
      // The other kinds' extra columns are ignored; without one, a line with no name would be a blank line.
      const empty = await upload(
        e.hasColor
          ? "nome;cor\r\nKinds Vazio;#aabbcc\r\n;#aabbcc\r\n"
          : "nome;observação\r\nKinds Vazio;x\r\n;sem nome\r\n",
      );
      expect(empty.status).toBe(400);
      expect(empty.body.fieldErrors[e.csvField]).toEqual([e.emptyName(3)]);

      const clash = await upload([e.csvHeader, line("Kinds Novo"), line("kinds já na filial")].join("\r\n") + "\r\n");
      expect(clash.status).toBe(400);
      expect(clash.body.fieldErrors[e.csvField]).toEqual([e.alreadyInBranch(3, "Kinds Já Na Filial")]);
    });

    if (e.hasColor) {
      test("risks: colours are kept in lower case; an invalid one is named by its line and nothing is written", async () => {
        const before = await catalogueRows(t.db, kind);
        const bad = await upload(
          "nome;cor\nKinds Bom;#111111\nKinds Repetido;vermelho\nKinds Outro;#222222\nKinds outro;#333333\n",
        );
        expect(bad.status).toBe(400);
        expect(bad.body.fieldErrors[e.csvField]).toEqual([
          "Linha 3: a cor 'vermelho' é inválida; use o formato #RRGGBB (por exemplo #c62828).",
          "Linha 5: 'Kinds outro' está repetido no arquivo (linha 4).",
        ]);
        expect(await catalogueRows(t.db, kind)).toEqual(before);

        // Excel pt-BR: a header in other case, upper-case colours.
        const good = await upload("Nome;Cor\r\nKinds Recepção;#FF6F00\r\nKinds Órgão Único;#AD1457\r\n");
        expect(good.status, JSON.stringify(good.body)).toBe(201);
        const rows = await catalogueRows(t.db, kind);
        expect(rows.find((row) => row.name === "Kinds Recepção")?.color).toBe("#ff6f00");
        expect(rows.find((row) => row.name === "Kinds Órgão Único")?.color).toBe("#ad1457");
      });
    } else {
      test("a colour column is ignored: the items have no colour", async () => {
        const answer = await upload("nome;cor\r\nKinds Sem Cor;#ff0000\r\n");
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        const listed = await t.get(`${base}?filialId=${ids.matriz}&q=Kinds Sem Cor`, { token: admin });
        expect(listed.body.items).toMatchObject([{ name: "Kinds Sem Cor", color: null }]);
      });
    }
  });
});
