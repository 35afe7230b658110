/**
 * Issue 7 item 1: who may edit whom (spec 000 §6), checked in the API against the TARGET's level. A matrix of
 * editor level × target level, all in one branch so the tenant/branch scope never decides: only the rule table.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { hashPassword } from "../../api/auth/password.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { canEditUser } from "../../api/domain/roles.ts";
import { useTestApi } from "../support/api.ts";
import { branchId, COMPANY_A, companyId, userByEmail } from "../support/demo.ts";

const t = useTestApi();

type Level = 1 | 2 | 3 | 4 | 5 | 7 | null;
const LEVELS: Level[] = [1, 2, 3, 4, 5, 7, null];
const name = (level: Level) => (level === null ? "none" : String(level));

/** Spec 000 §6, written out by hand: editor level → the target levels it may edit (other people). */
const MAY_EDIT: Record<string, Level[]> = {
  1: [2, 3, 4, 5, 7, null],
  2: [2, 3, 4, 5, 7, null],
  3: [3, 5, 7, null],
  none: [3, 5, 7, null],
  4: [],
  5: [],
  7: [],
};

describe("PUT /api/users: the edit rule table of spec 000 §6", () => {
  const ids = new Map<string, number>();
  const tokens = new Map<string, string>();
  let cpf = 10_000_000_000;

  // One editor and one target per level, all in branch Aldeota.
  beforeAll(async () => {
    const company = await companyId(t.db, COMPANY_A);
    const aldeota = await branchId(t.db, "Filial Aldeota");
    const password_hash = await hashPassword(DEMO_PASSWORD);
    for (const role of ["editor", "target"]) {
      for (const level of LEVELS) {
        const email = `${role}-${name(level)}@matrix.test`;
        const { id } = await t.db
          .insertInto("users")
          .values({
            email,
            nome: `${role} ${name(level)}`,
            cpf: String(cpf++),
            telefone: "85988887777",
            role_id: level,
            coordenador: level === 3 ? 1 : null,
            company_id: company,
            branch_id: aldeota,
            filial_client_id: level === 7 ? aldeota : null,
            password_hash,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        ids.set(email, id);
        if (role === "editor") tokens.set(name(level), await t.signIn(email));
      }
    }
  });

  for (const editor of LEVELS) {
    for (const target of LEVELS) {
      const allowed = MAY_EDIT[name(editor)].includes(target);
      test(`editor ${name(editor)} → target ${name(target)}: ${allowed ? 200 : 403}`, async () => {
        const email = `target-${name(target)}@matrix.test`;
        const before = await userByEmail(t.db, email);
        const answer = await t.put(
          "/api/users",
          {
            userId: ids.get(email),
            nome: "Nome Trocado",
            telefone: before.telefone,
            ativo: true,
            password: "trocada9",
          },
          { token: tokens.get(name(editor)) },
        );
        const after = await userByEmail(t.db, email);
        // Put the target back for the next editor, whatever this test finds.
        await t.db
          .updateTable("users")
          .set({ nome: before.nome, password_hash: before.password_hash })
          .where("id", "=", before.id)
          .execute();
        if (allowed) {
          expect(answer.status).toBe(200);
          expect(after.nome).toBe("Nome Trocado");
          expect(after.password_hash).not.toBe(before.password_hash);
        } else {
          expect(answer.status).toBe(403);
          expect(answer.body.message).toBe("Permissão negada!");
          expect(after.password_hash).toBe(before.password_hash);
          expect(after.nome).toBe(before.nome);
        }
        // The shared table answers the same as the API (the UI's edit button reads it).
        expect(
          canEditUser({ id: -1, roleId: editor, coordenador: null }, { id: -2, roleId: target, coordenador: null }),
        ).toBe(allowed);
      });
    }
  }

  test("the probe: an Administrador cannot replace the owner's password (403)", async () => {
    const admin = await t.signIn("admin@demo.com.br");
    const owner = await userByEmail(t.db, "principal@demo.com.br");
    const answer = await t.put(
      "/api/users",
      { userId: owner.id, nome: owner.nome, telefone: owner.telefone, ativo: true, password: "tomada123" },
      { token: admin },
    );
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: "Permissão negada!" });
    expect(await userByEmail(t.db, "principal@demo.com.br")).toEqual(owner);
  });

  test("the owner edits their own record (200)", async () => {
    const owner = await userByEmail(t.db, "principal@demo.com.br");
    const self = await t.signIn("principal@demo.com.br");
    const own = await t.put(
      "/api/users",
      { userId: owner.id, nome: "Paula P.", telefone: owner.telefone, ativo: true },
      { token: self },
    );
    expect(own.status).toBe(200);
    expect(own.body.user.nome).toBe("Paula P.");
    expect((await userByEmail(t.db, "principal@demo.com.br")).nome).toBe("Paula P.");
  });
});
