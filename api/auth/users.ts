import type { Kysely } from "kysely";

import type { AuthUser } from "../context.ts";
import type { DB } from "../db/schema.ts";
import { roleName } from "../domain/roles.ts";

/** The columns every user answer needs, in one query shape. Never the password hash: see selectPasswordHash. */
export function selectUsers(db: Kysely<DB>) {
  return db
    .selectFrom("users")
    .select([
      "users.id",
      "users.nome",
      "users.email",
      "users.cpf",
      "users.telefone",
      "users.data_nascimento",
      "users.avatar",
      "users.role_id",
      "users.coordenador",
      "users.ativo",
      "users.company_id",
      "users.branch_id",
      "users.filial_client_id",
      "users.tipo",
      "users.is_physical_person",
      "users.logged_first_time",
      "users.verified",
      "users.allowed_create_users",
      "users.created_at",
    ]);
}

/** Only where a password is checked (sign-in, changing one's own password): the user's id and stored hash. */
export function selectPasswordHash(db: Kysely<DB>) {
  return db.selectFrom("users").select(["users.id", "users.password_hash"]);
}

export type UserRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectUsers>["executeTakeFirst"]>>>;

export function toAuthUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    nome: row.nome,
    email: row.email,
    cpf: row.cpf,
    telefone: row.telefone,
    dataNascimento: row.data_nascimento,
    avatar: row.avatar,
    roleId: row.role_id,
    coordenador: row.coordenador,
    ativo: row.ativo,
    companyId: row.company_id,
    branchId: row.branch_id,
    filialClientId: row.filial_client_id,
  };
}

/**
 * The contract's User (spec 000 §3). Its companyId is the branch for branch-level staff and the main company
 * otherwise, as the original API answered; avatar_url is where the web app can fetch the picture.
 */
export function userJson(row: UserRow) {
  return {
    id: row.id,
    nome: row.nome,
    email: row.email,
    cpf: row.cpf,
    telefone: row.telefone,
    dataNascimento: row.data_nascimento,
    avatar: row.avatar,
    avatar_url: row.avatar ? `/api/files/avatars/${row.avatar}` : null,
    roleId: row.role_id,
    coordenador: row.coordenador,
    ativo: row.ativo,
    companyId: row.branch_id ?? row.company_id,
    filialClientId: row.filial_client_id,
    tipo: row.tipo,
    isPhysicalPerson: row.is_physical_person,
    loggedFirstTime: row.logged_first_time,
    verified: row.verified,
    allowedCreateUsers: row.allowed_create_users,
    createdAt: row.created_at.toISOString(),
    nivelAcesso: roleName({ roleId: row.role_id, coordenador: row.coordenador }),
  };
}

/**
 * empresaPrincipal and cpfUserMaster of the session answer (decision: docs/decisions/002-tenancy.md), in one query:
 * the companies the user works for or owns (master CPF), each flagged when the CPF owns it. The web app reads this
 * on every page (GET /sessions/current), so it is kept to a single round trip.
 */
export async function mainCompaniesOf(
  db: Kysely<DB>,
  user: { cpf: string; companyId: number; roleId: number | null; branchId: number | null },
) {
  // Staff scoped by the main company (admins, auditors) work for it; branch-level staff and clients do not.
  const hasMainCompany = user.roleId === 1 || user.roleId === 2 || user.roleId === 4;
  const companies = await db
    .selectFrom("companies")
    .select((eb) => [
      "companies.id",
      "companies.nome",
      eb
        .exists(
          eb
            .selectFrom("master_cpfs")
            .select("master_cpfs.cpf")
            .where("master_cpfs.cpf", "=", user.cpf)
            .whereRef("master_cpfs.company_id", "=", "companies.id"),
        )
        .as("owned"),
    ])
    .where((eb) =>
      eb.or([
        eb(
          "companies.id",
          "in",
          eb.selectFrom("master_cpfs").select("master_cpfs.company_id").where("master_cpfs.cpf", "=", user.cpf),
        ),
        ...(hasMainCompany ? [eb("companies.id", "=", user.companyId)] : []),
      ]),
    )
    .orderBy("companies.id")
    .execute();
  const cpfUserMaster = companies
    .filter((company) => company.owned)
    .map((company) => ({ CPF: user.cpf, Id_Empresas: company.id }));
  // The user's own main company first: every scoped query reads empresaPrincipal[0].
  companies.sort((a, b) => (a.id === user.companyId ? -1 : b.id === user.companyId ? 1 : a.id - b.id));
  return {
    cpfUserMaster,
    empresaPrincipal: hasMainCompany
      ? companies.map((company) => ({ Id_Empresas: company.id, NOME: company.nome }))
      : [],
  };
}
