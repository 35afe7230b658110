/**
 * Issue 11's role matrix (spec 000 §6 'Creating users', 'Level choices on edit', 'Edit button on a user row is
 * disabled'), checked against the API: for each signed-in level (1, 2, 3, 4, none, 7), which levels it may create,
 * which users it may move to another level, which levels it may give, and whose names it may add. Editing name,
 * phone, status and password (PUT /api/users) has its own matrix in security-user-edit.test.ts. Everyone is in
 * branch Aldeota, so the tenant and branch scope never decide here: only the rule tables. Each expectation is
 * written out by hand and also compared with the shared function the web app draws its buttons from.
 */
import { beforeAll, describe, expect, test } from "vitest";

import { hashPassword } from "../../api/auth/password.ts";
import { DEMO_PASSWORD } from "../../api/db/seed.ts";
import { canEditUser, type RoleId } from "../../api/domain/roles.ts";
import { createLevelsFor, levelChoicesFor, USER_LEVELS } from "../../api/domain/users.ts";
import { useTestApi } from "../support/api.ts";
import { cpfWithCheckDigits } from "../support/cpf.ts";
import { demoIds } from "../support/demo.ts";

const t = useTestApi();

const SIGNED_IN: RoleId[] = [1, 2, 3, 4, null, 7];
const TARGETS: RoleId[] = [1, 2, 3, 4, 5, 7, null];
const name = (level: RoleId) => (level === null ? "none" : String(level));

/** Spec 000 §6 by hand: the levels each signed-in level may create (4 and 7 may not open the users page). */
const MAY_CREATE: Record<string, number[]> = {
  1: [2, 3, 4, 5, 7],
  2: [2, 3, 4, 5, 7],
  3: [3, 5],
  none: [3, 5],
  4: [],
  7: [],
};

/** The users whose level (and names) each signed-in level may change: the edit rule of §6, other people only. */
const MAY_EDIT: Record<string, RoleId[]> = {
  1: [2, 3, 4, 5, 7, null],
  2: [2, 3, 4, 5, 7, null],
  3: [3, 5, 7, null],
  none: [3, 5, 7, null],
  4: [],
  7: [],
};

/** The levels each may give on 'Alterar nível de acesso' (§6 'Level choices on edit', 'Sem nível' changes nothing). */
const MAY_GIVE: Record<string, number[]> = {
  1: [2, 3, 4, 5],
  2: [2, 3, 4, 5],
  3: [3, 5],
  none: [3, 5],
  4: [],
  7: [],
};

const MANAGES_USERS = (level: RoleId) => level !== 4 && level !== 7;

let ids: Awaited<ReturnType<typeof demoIds>>;
const tokens = new Map<string, string>();
const users = new Map<string, { id: number; roleId: RoleId }>();
let serial = 600_200_000;
const nextCpf = () => cpfWithCheckDigits(String(++serial));

/** The body of a level change or create call: a branch for branch levels, the company for the others. */
const placeOf = (levelId: number, kind: "create" | "transform") => {
  const level = USER_LEVELS.find((entry) => entry.id === levelId)!;
  if (!level.branch) return { companyId: ids.hospital };
  return kind === "create" ? { filiaId: ids.aldeota } : { filialId: ids.aldeota };
};

beforeAll(async () => {
  ids = await demoIds(t.db);
  await t.db.updateTable("companies").set({ max_number_users: 10_000 }).where("id", "=", ids.hospital).execute();
  const password_hash = await hashPassword(DEMO_PASSWORD);
  for (const role of ["editor", "target"]) {
    for (const level of role === "editor" ? SIGNED_IN : TARGETS) {
      const email = `${role}-${name(level)}@matriz-usuarios.test`;
      const { id } = await t.db
        .insertInto("users")
        .values({
          email,
          nome: `${role} ${name(level)}`,
          cpf: nextCpf(),
          telefone: "85988887777",
          role_id: level,
          coordenador: level === 3 ? 1 : null,
          company_id: ids.hospital,
          // Company-wide levels too, as if they had been moved up from the branch: the coordinator sees them.
          branch_id: level === 7 ? null : ids.aldeota,
          filial_client_id: level === 7 ? ids.aldeota : null,
          password_hash,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      users.set(`${role}-${name(level)}`, { id, roleId: level });
      if (role === "editor") tokens.set(name(level), await t.signIn(email));
    }
  }
});

describe("creating a user of each level (POST /api/empresas/{level})", () => {
  for (const editor of SIGNED_IN) {
    for (const level of USER_LEVELS) {
      const allowed = MAY_CREATE[name(editor)].includes(level.id);
      test(`signed in ${name(editor)} creates ${level.label}: ${allowed ? 201 : 403}`, async () => {
        const cpf = nextCpf();
        const answer = await t.post(
          `/api/empresas/${level.create}`,
          {
            nome: `Criado por ${name(editor)}`,
            email: `criado-${cpf}@matriz-usuarios.test`,
            cpf,
            dataNascimento: "01/02/1991",
            telefone: "85999990000",
            password: "segredo1",
            ...placeOf(level.id, "create"),
          },
          { token: tokens.get(name(editor)) },
        );
        const written = await t.db.selectFrom("users").select("role_id").where("cpf", "=", cpf).executeTakeFirst();
        if (allowed) {
          expect(answer.status, JSON.stringify(answer.body)).toBe(201);
          expect(written?.role_id).toBe(level.id);
        } else {
          expect(answer.status).toBe(403);
          expect(answer.body.message).toBe("Permissão negada!");
          expect(written).toBeUndefined();
        }
        // The create form offers exactly these levels.
        const offered = MANAGES_USERS(editor) ? createLevelsFor({ roleId: editor, coordenador: null }) : [];
        expect(offered.includes(level.id)).toBe(allowed);
      });
    }
  }
});

describe("moving another user to a level (POST /api/empresas/transformTo*)", () => {
  for (const editor of SIGNED_IN) {
    for (const target of TARGETS) {
      const allowed = MAY_EDIT[name(editor)].includes(target);
      // An ASG becomes Coordenador, anyone else ASG: both are levels every manager may give.
      const to = target === 5 ? USER_LEVELS[1] : USER_LEVELS[3];
      test(`signed in ${name(editor)} moves a ${name(target)} to ${to.label}: ${allowed ? 200 : 403}`, async () => {
        const { id } = users.get(`target-${name(target)}`)!;
        const before = await t.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        const answer = await t.post(
          `/api/empresas/${to.transform}`,
          { userId: id, ...placeOf(to.id, "transform") },
          { token: tokens.get(name(editor)) },
        );
        const after = await t.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
        if (allowed) {
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(after.role_id).toBe(to.id);
          // Put the target back for the next editor.
          const { role_id, branch_id, filial_client_id, coordenador } = before;
          await t.db
            .updateTable("users")
            .set({ role_id, branch_id, filial_client_id, coordenador })
            .where("id", "=", id)
            .execute();
        } else {
          expect(answer.status).toBe(403);
          expect(answer.body.message).toBe("Permissão negada!");
          expect(after.role_id).toBe(before.role_id);
        }
        // The users list's edit button reads the same table.
        const editable =
          MANAGES_USERS(editor) &&
          canEditUser({ id: -1, roleId: editor, coordenador: null }, { id: -2, roleId: target, coordenador: null });
        expect(editable).toBe(allowed);
      });
    }
  }
});

describe("the levels each may give (to an ASG every manager may edit)", () => {
  for (const editor of SIGNED_IN) {
    for (const level of USER_LEVELS.filter((entry) => entry.transform)) {
      const allowed = MAY_GIVE[name(editor)].includes(level.id);
      test(`signed in ${name(editor)} gives ${level.label}: ${allowed ? 200 : 403}`, async () => {
        const { id } = users.get("target-5")!;
        const answer = await t.post(
          `/api/empresas/${level.transform}`,
          { userId: id, ...placeOf(level.id, "transform") },
          { token: tokens.get(name(editor)) },
        );
        const after = await t.db.selectFrom("users").select("role_id").where("id", "=", id).executeTakeFirstOrThrow();
        if (allowed) {
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          expect(after.role_id).toBe(level.id);
          await t.db
            .updateTable("users")
            .set({ role_id: 5, branch_id: ids.aldeota, coordenador: null })
            .where("id", "=", id)
            .execute();
        } else {
          expect(answer.status).toBe(403);
          expect(after.role_id).toBe(5);
        }
        const offered = MANAGES_USERS(editor) ? levelChoicesFor({ roleId: editor, coordenador: null }) : [];
        expect(offered.includes(level.id)).toBe(allowed);
      });
    }
  }
});

describe("adding a name to another user (POST /api/nameUser)", () => {
  for (const editor of SIGNED_IN) {
    for (const target of TARGETS) {
      const allowed = MAY_EDIT[name(editor)].includes(target);
      test(`signed in ${name(editor)} names a ${name(target)}: ${allowed ? 201 : 403}`, async () => {
        const { id } = users.get(`target-${name(target)}`)!;
        const nickname = `Apelido de ${name(editor)}`;
        const answer = await t.post(
          "/api/nameUser",
          { userId: id, name: nickname },
          { token: tokens.get(name(editor)) },
        );
        const written = await t.db
          .selectFrom("user_names")
          .select("id")
          .where("user_id", "=", id)
          .where("name", "=", nickname)
          .executeTakeFirst();
        expect(answer.status).toBe(allowed ? 201 : 403);
        expect(Boolean(written)).toBe(allowed);
      });
    }
  }
});
