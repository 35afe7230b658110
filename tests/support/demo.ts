/** Look-ups of the demo data (api/db/seed.ts) by name, so tests never hard-code serial ids. */
import type { Kysely } from "kysely";

import type { DB } from "../../api/db/schema.ts";

export const COMPANY_A = "Hospital Boa Saúde";
export const COMPANY_B = "Limpa Bem Serviços";

export async function companyId(db: Kysely<DB>, nome: string) {
  const row = await db.selectFrom("companies").select("id").where("nome", "=", nome).executeTakeFirstOrThrow();
  return row.id;
}

export async function branchId(db: Kysely<DB>, nome: string) {
  const row = await db.selectFrom("branches").select("id").where("nome", "=", nome).executeTakeFirstOrThrow();
  return row.id;
}

export async function userByEmail(db: Kysely<DB>, email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
}

export async function countRows(db: Kysely<DB>, table: keyof DB) {
  const row = await db
    .selectFrom(table)
    .select(({ fn }) => fn.countAll<string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The ids of the demo companies and branches the catalogue tests use. */
export async function demoIds(db: Kysely<DB>) {
  return {
    hospital: await companyId(db, COMPANY_A),
    other: await companyId(db, COMPANY_B),
    matriz: await branchId(db, "Matriz Fortaleza"),
    aldeota: await branchId(db, "Filial Aldeota"),
    messejana: await branchId(db, "Filial Messejana"),
    caucaia: await branchId(db, "Filial Caucaia (desativada)"),
    recife: await branchId(db, "Sede Recife"),
  };
}
