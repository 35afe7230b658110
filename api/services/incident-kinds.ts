import type { Kysely, Transaction } from "kysely";

import type { Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { INCIDENT_KIND_LIMITS as L, INCIDENT_KIND_TEXTS as T } from "../domain/incidents.ts";
import { ApiError, notFound } from "../lib/errors.ts";

/**
 * The kinds of problem a company offers visitors (issue 28 §1, §3; docs/incidents.md 'Kinds'): each with its
 * deadline and the proof resolving needs. Every company starts with five (migration 015); its administrators rename,
 * retime, change the proof, switch off or add kinds. A kind is never deleted: its incidents keep it. A change applies
 * to what comes next: an open incident keeps its deadline, and is resolved with the proof its kind asks for now.
 */

export type IncidentKindInput = {
  nome: string;
  prazoMinutos: number;
  prova: "foto" | "nota" | "ambos";
  ativo: boolean;
};

/** The company's kinds, in the order visitors see them (inactive ones last). */
export function listIncidentKinds(db: Kysely<DB>, scope: Scope) {
  return db
    .selectFrom("incident_kinds")
    .select(["id", "nome", "prazo_minutos", "prova", "ativo", "ordem"])
    .where("company_id", "=", scope.companyId)
    .orderBy("ativo", "desc")
    .orderBy("ordem")
    .orderBy("id")
    .limit(L.perCompany)
    .execute();
}

function checked(input: IncidentKindInput) {
  const nome = input.nome.trim().replace(/\s+/g, " ");
  if (!nome) throw new ApiError(400, T.nameRequired, { nome: [T.nameRequired] });
  if (nome.length > L.nameMax) throw new ApiError(400, T.nameTooLong, { nome: [T.nameTooLong] });
  if (!Number.isInteger(input.prazoMinutos) || input.prazoMinutos < L.minMinutes || input.prazoMinutos > L.maxMinutes)
    throw new ApiError(400, T.deadlineRange, { prazoMinutos: [T.deadlineRange] });
  return { nome, prazo_minutos: input.prazoMinutos, prova: input.prova, ativo: input.ativo };
}

/**
 * The company's kinds locked for one change, so two administrators at once queue: the count, the free name and the
 * last active kind are then checked against what the other one wrote.
 */
async function lockKinds(trx: Transaction<DB>, scope: Scope) {
  return trx
    .selectFrom("incident_kinds")
    .select(["id", "nome", "ativo", "ordem"])
    .where("company_id", "=", scope.companyId)
    .forUpdate()
    .execute();
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A new kind, after the company's others; at most L.perCompany kinds. */
export async function createIncidentKind(db: Kysely<DB>, scope: Scope, input: IncidentKindInput) {
  const values = checked(input);
  return db.transaction().execute(async (trx) => {
    const kinds = await lockKinds(trx, scope);
    if (kinds.length >= L.perCompany) throw new ApiError(400, T.tooMany);
    if (kinds.some((kind) => sameName(kind.nome, values.nome)))
      throw new ApiError(400, T.nameTaken, { nome: [T.nameTaken] });
    return trx
      .insertInto("incident_kinds")
      .values({ ...values, company_id: scope.companyId, ordem: Math.max(0, ...kinds.map((kind) => kind.ordem)) + 1 })
      .returning(["id", "nome", "prazo_minutos", "prova", "ativo", "ordem"])
      .executeTakeFirstOrThrow();
  });
}

/** A kind of the caller's company changed; another company's is 404. */
export async function updateIncidentKind(db: Kysely<DB>, scope: Scope, id: number, input: IncidentKindInput) {
  const values = checked(input);
  return db.transaction().execute(async (trx) => {
    const kinds = await lockKinds(trx, scope);
    if (!kinds.some((kind) => kind.id === id)) throw notFound(T.notFound);
    if (kinds.some((kind) => kind.id !== id && sameName(kind.nome, values.nome)))
      throw new ApiError(400, T.nameTaken, { nome: [T.nameTaken] });
    // Visitors still need something to choose: the last active kind cannot be switched off.
    if (!values.ativo && !kinds.some((kind) => kind.id !== id && kind.ativo))
      throw new ApiError(400, T.lastActive, { ativo: [T.lastActive] });
    return trx
      .updateTable("incident_kinds")
      .set(values)
      .where("id", "=", id)
      .returning(["id", "nome", "prazo_minutos", "prova", "ativo", "ordem"])
      .executeTakeFirstOrThrow();
  });
}
