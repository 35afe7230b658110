/**
 * Duplicating catalogue items into a branch (spec 000 §2 'Duplicar ...', §5; docs/decisions/004-catalogues.md
 * 'Duplicate'): POST /{path}/duplicar { ids, companyId } copies, in one transaction, the items whose names the
 * target branch lacks, and answers what it created and how many it skipped.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { ALREADY_PRESENT, CATALOGUE_KINDS, CATALOGUES, INVALID_LIST } from "../../api/domain/catalogues.ts";
import { useTestApi } from "../support/api.ts";
import { catalogueRows } from "../support/catalogues.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

let admin: string;
let outra: string;
const ids = { hospital: 0, other: 0, matriz: 0, aldeota: 0, messejana: 0, caucaia: 0, recife: 0 };

beforeAll(async () => {
  admin = await t.signIn("admin@demo.com.br");
  outra = await t.signIn("outra@demo.com.br");
  Object.assign(ids, await demoIds(t.db));
});

describe.each(CATALOGUE_KINDS)("POST /api/…/duplicar for %s", (kind) => {
  const c = CATALOGUES[kind];
  const base = `/api${c.apiPath}`;
  const path = `${base}/duplicar`;

  const rows = () => catalogueRows(t.db, kind);
  const live = async (branch: number) =>
    (await rows()).filter((row) => row.branch_id === branch && row.deleted_at === null);

  let colourIndex = 0;
  /** Creates an item through the API (risks get a colour of their own), answering its id. */
  const create = async (name: string, branch: number) => {
    const color = c.hasColor ? { color: `#a0b0${String(++colourIndex).padStart(2, "0")}` } : {};
    const answer = await t.post(base, { name, companyId: branch, ...color }, { token: admin });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { id: number; name: string; color: string | null };
  };

  /** A fresh active branch of the demo company, so a test knows exactly what the target holds. */
  let branchCount = 0;
  const newBranch = async () => {
    branchCount++;
    const cnpj = `${String(CATALOGUE_KINDS.indexOf(kind) + 1)}${String(branchCount).padStart(2, "0")}`.padEnd(14, "7");
    return (
      await t.db
        .insertInto("branches")
        .values({ company_id: ids.hospital, nome: `Filial destino ${kind} ${branchCount}`, cnpj })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  };

  async function expectNothingWritten(call: () => Promise<{ status: number; body: any }>) {
    const before = await rows();
    const answer = await call();
    expect(await rows()).toEqual(before);
    return answer;
  }

  test("copies only the names the target branch lacks (case-insensitive), and answers created and skipped", async () => {
    const alfa = await create("Dup Alfa", ids.matriz);
    const beta = await create("Dup Beta", ids.matriz);
    const gama = await create("Dup Gama", ids.matriz);
    await create("DUP BETA", ids.messejana);
    const sourcesBefore = await live(ids.matriz);

    const answer = await t.post(path, { ids: [alfa.id, beta.id, gama.id], companyId: ids.messejana }, { token: admin });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.skipped).toBe(1);
    expect(answer.body.created).toEqual([
      {
        id: expect.any(Number),
        name: "Dup Alfa",
        color: c.hasColor ? alfa.color : null,
        companyId: ids.messejana,
        EMPRESA_ID: ids.messejana,
        empresa: "Filial Messejana",
        deletedAt: null,
      },
      {
        id: expect.any(Number),
        name: "Dup Gama",
        color: c.hasColor ? gama.color : null,
        companyId: ids.messejana,
        EMPRESA_ID: ids.messejana,
        empresa: "Filial Messejana",
        deletedAt: null,
      },
    ]);

    const target = (await live(ids.messejana)).filter((row) => row.name.toLowerCase().startsWith("dup "));
    expect(target.map((row) => row.name).sort()).toEqual(["DUP BETA", "Dup Alfa", "Dup Gama"]);
    for (const row of target) expect(row.company_id).toBe(ids.hospital);
    if (c.hasColor) {
      // Risks keep their colour.
      expect(target.find((row) => row.name === "Dup Alfa")!.color).toBe(alfa.color);
      expect(target.find((row) => row.name === "Dup Gama")!.color).toBe(gama.color);
    }
    // The sources are untouched.
    expect(await live(ids.matriz)).toEqual(sourcesBefore);
  });

  test(`when every name is already there: 400 '${ALREADY_PRESENT}' and nothing written`, async () => {
    const delta = await create("Dup Delta", ids.matriz);
    await create("dup delta", ids.aldeota);
    const answer = await expectNothingWritten(() =>
      t.post(path, { ids: [delta.id], companyId: ids.aldeota }, { token: admin }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: ALREADY_PRESENT });

    // Duplicating into the items' own branch is the same case.
    const own = await expectNothingWritten(() =>
      t.post(path, { ids: [delta.id], companyId: ids.matriz }, { token: admin }),
    );
    expect(own.status).toBe(400);
    expect(own.body.message).toBe(ALREADY_PRESENT);
  });

  test("a second identical duplicate finds everything present", async () => {
    const target = await newBranch();
    const one = await create("Dup Repetido 1", ids.matriz);
    const two = await create("Dup Repetido 2", ids.matriz);
    const first = await t.post(path, { ids: [one.id, two.id], companyId: target }, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.created).toHaveLength(2);
    expect(first.body.skipped).toBe(0);
    const second = await expectNothingWritten(() =>
      t.post(path, { ids: [one.id, two.id], companyId: target }, { token: admin }),
    );
    expect(second.status).toBe(400);
    expect(second.body.message).toBe(ALREADY_PRESENT);
  });

  test(`an empty selection answers 400 '${INVALID_LIST}'`, async () => {
    const answer = await expectNothingWritten(() =>
      t.post(path, { ids: [], companyId: ids.messejana }, { token: admin }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: INVALID_LIST });
  });

  test("a body without ids or target answers 400", async () => {
    for (const body of [{ companyId: ids.messejana }, { ids: [1] }, { ids: "1,2", companyId: ids.messejana }]) {
      const answer = await expectNothingWritten(() => t.post(path, body, { token: admin }));
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });

  test("two items of the same name (from different branches) make one copy", async () => {
    const target = await newBranch();
    const a = await create("Dup Homônimo", ids.matriz);
    const b = await create("DUP HOMÔNIMO", ids.aldeota);
    const answer = await t.post(path, { ids: [a.id, b.id], companyId: target }, { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body.created.map((item: { name: string }) => item.name)).toHaveLength(1);
    expect(answer.body.skipped).toBe(1);
    expect(await live(target)).toHaveLength(1);
  });

  test("an id given twice is copied once", async () => {
    const target = await newBranch();
    const a = await create("Dup Duas Vezes", ids.matriz);
    const answer = await t.post(path, { ids: [a.id, a.id], companyId: target }, { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body.created).toHaveLength(1);
    expect(await live(target)).toHaveLength(1);
  });

  test("a name removed from the target can be copied there again", async () => {
    const source = await create("Dup Removido", ids.matriz);
    const inTarget = await create("Dup Removido", ids.messejana);
    expect((await t.delete(`${base}/${inTarget.id}`, { token: admin })).status).toBe(204);
    const answer = await t.post(path, { ids: [source.id], companyId: ids.messejana }, { token: admin });
    expect(answer.status).toBe(200);
    expect(answer.body.created).toHaveLength(1);
    expect(answer.body.created[0].id).not.toBe(inTarget.id);
  });

  test("an inactive target branch is refused and nothing is written", async () => {
    const source = await create("Dup Para Desativada", ids.matriz);
    const answer = await expectNothingWritten(() =>
      t.post(path, { ids: [source.id], companyId: ids.caucaia }, { token: admin }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("A filial está inativa");
  });

  test("another tenant's target branch or items answer 404 and nothing is written", async () => {
    const source = await create("Dup Fronteira", ids.matriz);
    const into = await expectNothingWritten(() =>
      t.post(path, { ids: [source.id], companyId: ids.recife }, { token: admin }),
    );
    expect(into.status).toBe(404);

    const [theirs] = await t.db
      .selectFrom(c.table as "risks")
      .select("id")
      .where("company_id", "=", ids.other)
      .execute();
    const from = await expectNothingWritten(() =>
      t.post(path, { ids: [theirs.id], companyId: ids.messejana }, { token: admin }),
    );
    expect(from.status).toBe(404);
    // Mixed with one of ours: still all or nothing.
    const mixed = await expectNothingWritten(() =>
      t.post(path, { ids: [source.id, theirs.id], companyId: ids.messejana }, { token: admin }),
    );
    expect(mixed.status).toBe(404);

    const reverse = await expectNothingWritten(() =>
      t.post(path, { ids: [source.id], companyId: ids.recife }, { token: outra }),
    );
    expect(reverse.status).toBe(404);
  });

  test("a removed or unknown id answers 404 and nothing of the selection is written", async () => {
    const kept = await create("Dup Mantido", ids.matriz);
    const removed = await create("Dup Apagado", ids.matriz);
    expect((await t.delete(`${base}/${removed.id}`, { token: admin })).status).toBe(204);
    for (const selection of [
      [kept.id, removed.id],
      [kept.id, 999_999],
    ]) {
      const answer = await expectNothingWritten(() =>
        t.post(path, { ids: selection, companyId: ids.messejana }, { token: admin }),
      );
      expect(answer.status, JSON.stringify(selection)).toBe(404);
    }
  });

  test("the copies are listed in the target branch", async () => {
    const target = await newBranch();
    const source = await create("Dup Listado", ids.aldeota);
    expect((await t.post(path, { ids: [source.id], companyId: target }, { token: admin })).status).toBe(200);
    const list = await t.get(`${base}?filialId=${target}`, { token: admin });
    expect(list.body.map((item: { name: string }) => item.name)).toEqual(["Dup Listado"]);
  });

  test("two identical duplicates at the same moment: one copies, the other finds the items present", async () => {
    const target = await newBranch();
    const sources = [await create("Dup Corrida 1", ids.matriz), await create("Dup Corrida 2", ids.matriz)];
    const body = { ids: sources.map((source) => source.id), companyId: target };
    const answers = await Promise.all([t.post(path, body, { token: admin }), t.post(path, body, { token: admin })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.message).toBe(ALREADY_PRESENT);
    expect(await live(target)).toHaveLength(2);
  });
});
