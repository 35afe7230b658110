/**
 * Catalogue writes (spec 000 §5 'Catalogues', §7 'Reference data', docs/decisions/004-catalogues.md): create,
 * rename and soft delete, for sectors, risks, procedures and categories; who may write; nothing written on failure.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { CATALOGUE_KINDS, CATALOGUES, catalogueTexts } from "../../api/domain/catalogues.ts";
import { useTestApi } from "../support/api.ts";
import { catalogueRows, type CatalogueRow } from "../support/catalogues.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

const tokens: Record<string, string> = {};
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

beforeAll(async () => {
  for (const email of ["admin", "principal", "coordenador", "semnivel", "auditor", "outra"]) {
    tokens[email] = await t.signIn(`${email}@demo.com.br`);
  }
  Object.assign(ids, await demoIds(t.db));
});

describe.each(CATALOGUE_KINDS)("%s: create, edit, remove", (kind) => {
  const c = CATALOGUES[kind];
  const texts = catalogueTexts(kind);
  const base = `/api${c.apiPath}`;
  const color = c.hasColor ? { color: "#123abc" } : {};
  const notFoundMessage = `${c.title} não encontrad${c.feminine ? "a" : "o"}`;

  const rows = () => catalogueRows(t.db, kind);
  const row = (id: number) =>
    t.db
      .selectFrom(c.table as "risks")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst() as Promise<CatalogueRow | undefined>;

  const create = async (name: string, branch: number, token = tokens.admin) => {
    const answer = await t.post(base, { name, companyId: branch, ...color }, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { id: number; name: string };
  };

  /** Runs a call that must fail and checks the table is exactly as before. */
  async function expectNothingWritten(call: () => Promise<{ status: number; body: any }>) {
    const before = await rows();
    const answer = await call();
    expect(await rows()).toEqual(before);
    return answer;
  }

  describe(`POST ${base}`, () => {
    test.each([base, `${base}/`])("POST %s creates the item in the branch given as companyId", async (path) => {
      const name = `Sala de espera ${path.endsWith("/") ? "B" : "A"}`;
      const answer = await t.post(path, { name, companyId: ids.aldeota, ...color }, { token: tokens.admin });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body).toEqual({
        id: expect.any(Number),
        name,
        color: c.hasColor ? "#123abc" : null,
        companyId: ids.aldeota,
        EMPRESA_ID: ids.aldeota,
        empresa: "Filial Aldeota",
        deletedAt: null,
      });
      expect(await row(answer.body.id)).toMatchObject({
        name,
        company_id: ids.hospital,
        branch_id: ids.aldeota,
        deleted_at: null,
      });
    });

    test("the principal (roleId 1) creates as well", async () => {
      const created = await create("Criado pela principal", ids.matriz, tokens.principal);
      expect(await row(created.id)).toMatchObject({ branch_id: ids.matriz, company_id: ids.hospital });
    });

    test("the name is trimmed and inner spaces collapsed", async () => {
      const created = await create("   Sala   de   reunião  ", ids.aldeota);
      expect(created.name).toBe("Sala de reunião");
      expect((await row(created.id))!.name).toBe("Sala de reunião");
    });

    test.each([[{ name: "" }], [{ name: "   " }], [{}], [{ name: null }], [{ name: 12 }]])(
      `a missing name answers 400 '${texts.nameRequired}' (%j)`,
      async (name) => {
        const answer = await expectNothingWritten(() =>
          t.post(base, { companyId: ids.aldeota, ...color, ...name }, { token: tokens.admin }),
        );
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe(texts.nameRequired);
        expect(answer.body.fieldErrors.name).toEqual([texts.nameRequired]);
      },
    );

    test("a name over 120 characters answers 400", async () => {
      const answer = await expectNothingWritten(() =>
        t.post(base, { name: "x".repeat(121), companyId: ids.aldeota, ...color }, { token: tokens.admin }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.fieldErrors).toHaveProperty("name");
      await create("y".repeat(120), ids.aldeota);
    });

    if (c.hasColor) {
      test.each([[undefined], [""], ["red"], ["#abc"], ["123abc"], ["#12345g"]])(
        "colour %j answers 400 'Escolha a cor do risco'",
        async (value) => {
          const answer = await expectNothingWritten(() =>
            t.post(
              base,
              { name: "Risco sem cor", companyId: ids.aldeota, ...(value === undefined ? {} : { color: value }) },
              { token: tokens.admin },
            ),
          );
          expect(answer.status).toBe(400);
          expect(answer.body.message).toBe("Escolha a cor do risco");
          expect(answer.body.fieldErrors.color).toEqual(["Escolha a cor do risco"]);
        },
      );

      test("the colour is kept as #rrggbb in lower case", async () => {
        const answer = await t.post(
          base,
          { name: "Risco colorido", companyId: ids.aldeota, color: " #AABBCC " },
          { token: tokens.admin },
        );
        expect(answer.status).toBe(201);
        expect(answer.body.color).toBe("#aabbcc");
        expect((await row(answer.body.id))!.color).toBe("#aabbcc");
      });

      test("both messages when name and colour are missing", async () => {
        const answer = await t.post(base, { companyId: ids.aldeota }, { token: tokens.admin });
        expect(answer.status).toBe(400);
        expect(answer.body.fieldErrors).toEqual({ name: [texts.nameRequired], color: ["Escolha a cor do risco"] });
      });
    } else {
      test("a colour sent anyway is ignored", async () => {
        const answer = await t.post(
          base,
          { name: "Sem cor", companyId: ids.aldeota, color: "#aabbcc" },
          { token: tokens.admin },
        );
        expect(answer.status).toBe(201);
        expect(answer.body.color).toBeNull();
      });
    }

    test(`the same name in the same branch, in any case, answers 409 '${texts.duplicateDescription}'`, async () => {
      await create("Copa Única", ids.aldeota);
      for (const name of ["Copa Única", "COPA ÚNICA", "copa única", "  copa   única "]) {
        const answer = await expectNothingWritten(() =>
          t.post(base, { name, companyId: ids.aldeota, ...color }, { token: tokens.admin }),
        );
        expect(answer.status, name).toBe(409);
        expect(answer.body).toEqual({
          message: texts.duplicateDescription,
          fieldErrors: { name: [texts.duplicateDescription] },
        });
      }
    });

    test("a name of the demo data clashes in its branch", async () => {
      const [existing] = await t.db
        .selectFrom(c.table as "risks")
        .select("name")
        .where("branch_id", "=", ids.messejana)
        .where("deleted_at", "is", null)
        .orderBy("id")
        .execute();
      const answer = await expectNothingWritten(() =>
        t.post(
          base,
          { name: existing.name.toUpperCase(), companyId: ids.messejana, ...color },
          { token: tokens.admin },
        ),
      );
      expect(answer.status).toBe(409);
    });

    test("the same name in another branch is allowed", async () => {
      await create("Depósito compartilhado", ids.aldeota);
      const other = await create("DEPÓSITO COMPARTILHADO", ids.messejana);
      expect(await row(other.id)).toMatchObject({ branch_id: ids.messejana, name: "DEPÓSITO COMPARTILHADO" });
    });

    test("an inactive branch is refused and nothing is written", async () => {
      const answer = await expectNothingWritten(() =>
        t.post(base, { name: "Na desativada", companyId: ids.caucaia, ...color }, { token: tokens.admin }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe("A filial está inativa");
    });

    test("another tenant's branch, or no such branch, answers 404 and nothing is written", async () => {
      for (const branch of [ids.recife, 999_999]) {
        const answer = await expectNothingWritten(() =>
          t.post(base, { name: "Invasor", companyId: branch, ...color }, { token: tokens.admin }),
        );
        expect(answer.status).toBe(404);
        expect(answer.body.message).toBe("Filial não encontrada");
      }
      const theirs = await expectNothingWritten(() =>
        t.post(base, { name: "Invasor", companyId: ids.aldeota, ...color }, { token: tokens.outra }),
      );
      expect(theirs.status).toBe(404);
    });

    test("a missing or non-numeric companyId answers 400", async () => {
      for (const body of [{ name: "Sem filial" }, { name: "Sem filial", companyId: "abc" }]) {
        const answer = await expectNothingWritten(() => t.post(base, { ...body, ...color }, { token: tokens.admin }));
        expect(answer.status).toBe(400);
      }
    });
  });

  describe(`PUT ${base}/{id}`, () => {
    test("renames the item (and changes a risk's colour); the answer is the saved item", async () => {
      const item = await create("Para renomear", ids.aldeota);
      const answer = await t.put(
        `${base}/${item.id}`,
        { name: "  Renomeado  ", empresa: ids.aldeota, ...(c.hasColor ? { color: "#00FF00" } : {}) },
        { token: tokens.admin },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({
        id: item.id,
        name: "Renomeado",
        color: c.hasColor ? "#00ff00" : null,
        companyId: ids.aldeota,
        EMPRESA_ID: ids.aldeota,
        empresa: "Filial Aldeota",
        deletedAt: null,
      });
      expect(await row(item.id)).toMatchObject({
        name: "Renomeado",
        branch_id: ids.aldeota,
        ...(c.hasColor ? { color: "#00ff00" } : {}),
      });
    });

    test("renaming to its own name in another case is not a duplicate", async () => {
      const item = await create("Caixa baixa", ids.aldeota);
      const answer = await t.put(
        `${base}/${item.id}`,
        { name: "CAIXA BAIXA", empresa: ids.aldeota, ...color },
        { token: tokens.admin },
      );
      expect(answer.status).toBe(200);
      expect((await row(item.id))!.name).toBe("CAIXA BAIXA");
      // Without empresa (the field is optional).
      expect(
        (await t.put(`${base}/${item.id}`, { name: "Caixa Baixa", ...color }, { token: tokens.admin })).status,
      ).toBe(200);
    });

    test("renaming to another item's name in the same branch answers 409 and changes nothing", async () => {
      await create("Nome ocupado", ids.aldeota);
      const item = await create("Nome livre", ids.aldeota);
      const answer = await expectNothingWritten(() =>
        t.put(`${base}/${item.id}`, { name: "NOME OCUPADO", empresa: ids.aldeota, ...color }, { token: tokens.admin }),
      );
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(texts.duplicateDescription);
    });

    test("renaming to a name used in another branch is allowed", async () => {
      await create("Só na Messejana", ids.messejana);
      const item = await create("Na Aldeota", ids.aldeota);
      const answer = await t.put(
        `${base}/${item.id}`,
        { name: "Só na Messejana", empresa: ids.aldeota, ...color },
        { token: tokens.admin },
      );
      expect(answer.status).toBe(200);
    });

    test("a name of a removed item is free again", async () => {
      const removed = await create("Nome removido", ids.aldeota);
      await t.db
        .updateTable(c.table as "risks")
        .set({ deleted_at: new Date() })
        .where("id", "=", removed.id)
        .execute();
      const item = await create("Vai herdar", ids.aldeota);
      expect(
        (await t.put(`${base}/${item.id}`, { name: "Nome removido", ...color }, { token: tokens.admin })).status,
      ).toBe(200);
    });

    test("empresa of another branch in scope is accepted, but the item stays in its branch", async () => {
      const item = await create("Não se muda", ids.aldeota);
      const answer = await t.put(
        `${base}/${item.id}`,
        { name: "Não se muda", empresa: ids.messejana, ...color },
        { token: tokens.admin },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.companyId).toBe(ids.aldeota);
      expect((await row(item.id))!.branch_id).toBe(ids.aldeota);
    });

    test("empresa of another tenant answers 404 and changes nothing", async () => {
      const item = await create("Empresa alheia", ids.aldeota);
      const answer = await expectNothingWritten(() =>
        t.put(`${base}/${item.id}`, { name: "Invasor", empresa: ids.recife, ...color }, { token: tokens.admin }),
      );
      expect(answer.status).toBe(404);
    });

    test(`an empty name answers 400 '${texts.nameRequired}'`, async () => {
      const item = await create("Nome a apagar", ids.aldeota);
      const answer = await expectNothingWritten(() =>
        t.put(`${base}/${item.id}`, { name: " ", ...color }, { token: tokens.admin }),
      );
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(texts.nameRequired);
    });

    if (c.hasColor) {
      test("a risk without a valid colour answers 400", async () => {
        const item = await create("Cor obrigatória", ids.aldeota);
        const answer = await expectNothingWritten(() =>
          t.put(`${base}/${item.id}`, { name: "Cor obrigatória", color: "azul" }, { token: tokens.admin }),
        );
        expect(answer.status).toBe(400);
        expect(answer.body.message).toBe("Escolha a cor do risco");
      });
    }

    test(`another tenant's item, a removed item or no such item answers 404 '${notFoundMessage}'`, async () => {
      const [theirs] = await t.db
        .selectFrom(c.table as "risks")
        .select("id")
        .where("company_id", "=", ids.other)
        .execute();
      const removed = await create("Removido antes de editar", ids.aldeota);
      await t.db
        .updateTable(c.table as "risks")
        .set({ deleted_at: new Date() })
        .where("id", "=", removed.id)
        .execute();
      for (const id of [theirs.id, removed.id, 999_999]) {
        const answer = await expectNothingWritten(() =>
          t.put(`${base}/${id}`, { name: "Invasor", ...color }, { token: tokens.admin }),
        );
        expect(answer.status, String(id)).toBe(404);
        expect(answer.body.message).toBe(notFoundMessage);
      }
      // And the other way round: the other tenant cannot rename ours.
      const ours = await create("Nosso", ids.aldeota);
      const answer = await expectNothingWritten(() =>
        t.put(`${base}/${ours.id}`, { name: "Invasor", ...color }, { token: tokens.outra }),
      );
      expect(answer.status).toBe(404);
    });
  });

  describe(`DELETE ${base} (item as body) and DELETE ${base}/{id}`, () => {
    const removeCalls = {
      "with the item as body": (item: object) => t.delete(base, { token: tokens.admin, json: item }),
      "by id": (item: { id: number }) => t.delete(`${base}/${item.id}`, { token: tokens.admin }),
    };

    test.each(Object.keys(removeCalls) as (keyof typeof removeCalls)[])(
      "removing %s is a soft delete: the row stays with deleted_at, the list drops it, the name is free again",
      async (how) => {
        const name = `Para remover ${how}`;
        const item = await create(name, ids.aldeota);
        const neighbour = await create(`Vizinho ${how}`, ids.aldeota);
        const others = (await rows()).filter((r) => r.id !== item.id);

        const answer = await removeCalls[how](item);
        expect(answer.status, JSON.stringify(answer.body)).toBe(204);
        expect(answer.body).toBe("");

        const removed = await row(item.id);
        expect(removed).toMatchObject({ name, branch_id: ids.aldeota });
        expect(removed!.deleted_at).toBeInstanceOf(Date);
        expect((await rows()).filter((r) => r.id !== item.id)).toEqual(others);

        const list = await t.get(`${base}?filialId=${ids.aldeota}`, { token: tokens.admin });
        const listed = list.body.map((entry: { id: number }) => entry.id);
        expect(listed).not.toContain(item.id);
        expect(listed).toContain(neighbour.id);

        // Removing again, editing the removed item: 404.
        expect((await removeCalls[how](item)).status).toBe(404);
        expect(
          (await t.put(`${base}/${item.id}`, { name: "Ressuscitado", ...color }, { token: tokens.admin })).status,
        ).toBe(404);

        const again = await create(name, ids.aldeota);
        expect(again.id).not.toBe(item.id);
      },
    );

    test("the body form takes the item as the list answers it", async () => {
      const item = await create("Item completo", ids.aldeota);
      const listed = (await t.get(`${base}?filialId=${ids.aldeota}&ids=${item.id}`, { token: tokens.admin })).body[0];
      expect((await t.delete(base, { token: tokens.admin, json: listed })).status).toBe(204);
    });

    test("a body without id answers 400", async () => {
      const answer = await expectNothingWritten(() => t.delete(base, { token: tokens.admin, json: { name: "x" } }));
      expect(answer.status).toBe(400);
    });

    test("another tenant's item answers 404 in both forms and changes nothing", async () => {
      const [theirs] = await t.db
        .selectFrom(c.table as "risks")
        .selectAll()
        .where("company_id", "=", ids.other)
        .execute();
      for (const call of Object.values(removeCalls)) {
        const answer = await expectNothingWritten(() => call(theirs));
        expect(answer.status).toBe(404);
        expect(answer.body.message).toBe(notFoundMessage);
      }
      const ours = await create("Nosso, não deles", ids.aldeota);
      const answer = await expectNothingWritten(() => t.delete(`${base}/${ours.id}`, { token: tokens.outra }));
      expect(answer.status).toBe(404);
    });
  });

  describe("who may write", () => {
    /** Every write of the catalogue, with otherwise valid ids of the caller's own branch (Filial Aldeota). */
    async function writes() {
      const [mine] = await t.db
        .selectFrom(c.table as "risks")
        .selectAll()
        .where("branch_id", "=", ids.aldeota)
        .where("deleted_at", "is", null)
        .orderBy("id")
        .execute();
      const form = new FormData();
      form.set(
        c.csvField,
        new File([c.hasColor ? "nome;cor\nCSV proibido;#123456\n" : "nome\nCSV proibido\n"], "lista.csv", {
          type: "text/csv",
        }),
      );
      form.set("idEmpresaFilial", String(ids.aldeota));
      return {
        [`POST ${base}`]: (token: string) =>
          t.post(base, { name: "Proibido", companyId: ids.aldeota, ...color }, { token }),
        [`POST ${base}/`]: (token: string) =>
          t.post(`${base}/`, { name: "Proibido", companyId: ids.aldeota, ...color }, { token }),
        [`POST ${base} (invalid body)`]: (token: string) => t.post(base, {}, { token }),
        [`PUT ${base}/{id}`]: (token: string) => t.put(`${base}/${mine.id}`, { name: "Proibido", ...color }, { token }),
        [`DELETE ${base}`]: (token: string) => t.delete(base, { token, json: mine }),
        [`DELETE ${base}/{id}`]: (token: string) => t.delete(`${base}/${mine.id}`, { token }),
        [`POST ${base}/duplicar`]: (token: string) =>
          t.post(`${base}/duplicar`, { ids: [mine.id], companyId: ids.messejana }, { token }),
        [`POST /api${c.csvPath}`]: (token: string) => t.call("POST", `/api${c.csvPath}`, { token, form }),
      };
    }

    test.each(["coordenador", "semnivel", "auditor"])(
      "%s@ gets 403 'Permissão negada!' on every write, and nothing is written",
      async (who) => {
        for (const [name, call] of Object.entries(await writes())) {
          const answer = await expectNothingWritten(() => call(tokens[who]));
          expect(answer.status, name).toBe(403);
          expect(answer.body, name).toEqual({ message: "Permissão negada!" });
        }
      },
    );

    test("without a token every write answers 401", async () => {
      for (const [name, call] of Object.entries(await writes())) {
        const answer = await expectNothingWritten(() => call(""));
        expect(answer.status, name).toBe(401);
      }
    });
  });
});
