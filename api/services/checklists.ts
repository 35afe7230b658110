import { sql, type Kysely, type Transaction } from "kysely";

import { assertBranchInScope, scopeBranch, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { INSPECTION_LIMITS as L, INSPECTION_TEXTS as T } from "../domain/inspections.ts";
import { ApiError, notFound } from "../lib/errors.ts";

/**
 * Inspection checklists (issue 29 §1, docs/inspections.md): one per room category, items with a weight (1–5) and,
 * optionally, the procedure they check. Versioned: changing the items writes the next version's rows, so an
 * inspection scored against an older version keeps its items, weights and score.
 */

export type ChecklistItemInput = { chave?: number | null; texto: string; peso: number; procedimentoId?: number | null };
export type ChecklistInput = { categoriaId: number; nome: string; itens: ChecklistItemInput[] };

const clean = (text: string) => text.trim().replace(/\s+/g, " ");

/** The checklists of the scope (a branch for branch-level callers, or the one asked), with their names. */
function scopedChecklists(db: Kysely<DB>, scope: Scope, branchId?: number) {
  const branch = scopeBranch(scope) ?? branchId ?? null;
  return db
    .selectFrom("checklists as c")
    .innerJoin("branches as b", "b.id", "c.branch_id")
    .innerJoin("categories as k", "k.id", "c.category_id")
    .select([
      "c.id",
      "c.nome",
      "c.versao",
      "c.updated_at",
      "b.id as branch_id",
      "b.nome as filial",
      "k.id as category_id",
      "k.name as categoria",
    ])
    .where("c.company_id", "=", scope.companyId)
    .$if(branch !== null, (qb) => qb.where("c.branch_id", "=", branch!));
}

/** The checklists by branch and name, with their current item count; at most L.checklistsPerCompany. */
export function listChecklists(db: Kysely<DB>, scope: Scope, branchId?: number) {
  return scopedChecklists(db, scope, branchId)
    .select((eb) =>
      eb
        .selectFrom("checklist_items as i")
        .select(sql<number>`count(*)::int`.as("n"))
        .whereRef("i.checklist_id", "=", "c.id")
        .whereRef("i.versao", "=", "c.versao")
        .as("itens"),
    )
    .orderBy("b.nome")
    .orderBy("c.nome")
    .orderBy("c.id")
    .limit(L.checklistsPerCompany)
    .execute();
}

/** One version's items, in order. */
export function checklistItems(db: Kysely<DB>, checklistId: number, versao: number) {
  return db
    .selectFrom("checklist_items as i")
    .leftJoin("procedures as p", "p.id", "i.procedure_id")
    .select(["i.id", "i.chave", "i.posicao", "i.texto", "i.peso", "i.procedure_id", "p.name as procedimento"])
    .where("i.checklist_id", "=", checklistId)
    .where("i.versao", "=", versao)
    .orderBy("i.posicao")
    .execute();
}

/** One checklist in scope with its current items; 404 otherwise. */
export async function readChecklist(db: Kysely<DB>, scope: Scope, id: number) {
  const checklist = await scopedChecklists(db, scope).where("c.id", "=", id).executeTakeFirst();
  if (!checklist) throw notFound(T.checklistNotFound);
  return { ...checklist, itens: await checklistItems(db, checklist.id, checklist.versao) };
}

/** The name and items checked against the rules and the branch's catalogue; 400 with the field's message otherwise. */
async function checkedInput(db: Kysely<DB>, companyId: number, branchId: number, input: ChecklistInput) {
  const nome = clean(input.nome);
  if (!nome) throw new ApiError(400, T.nameRequired, { nome: [T.nameRequired] });
  if (nome.length > L.nameMax) throw new ApiError(400, T.nameTooLong, { nome: [T.nameTooLong] });
  // A key sent twice keeps its item once; the second is a new item.
  const keys = new Set<number>();
  const itens = input.itens
    .map((item) => ({ ...item, texto: clean(item.texto) }))
    .filter((item) => item.texto !== "")
    .map((item) => {
      if (!item.chave || keys.has(item.chave)) return { ...item, chave: null };
      keys.add(item.chave);
      return item;
    });
  if (itens.length === 0) throw new ApiError(400, T.itemsRequired, { itens: [T.itemsRequired] });
  if (itens.length > L.itemsMax) throw new ApiError(400, T.itemsTooMany, { itens: [T.itemsTooMany] });
  for (const item of itens) {
    if (item.texto.length > L.itemTextMax) throw new ApiError(400, T.itemTextTooLong, { itens: [T.itemTextTooLong] });
    if (!Number.isInteger(item.peso) || item.peso < L.weightMin || item.peso > L.weightMax)
      throw new ApiError(400, T.weightInvalid, { itens: [T.weightInvalid] });
  }
  const procedureIds = [...new Set(itens.flatMap((item) => (item.procedimentoId ? [item.procedimentoId] : [])))];
  if (procedureIds.length > 0) {
    const found = await db
      .selectFrom("procedures")
      .select(["id", "branch_id", "deleted_at"])
      .where("id", "in", procedureIds)
      .where("company_id", "=", companyId)
      .execute();
    // Another tenant's procedure is 404; the company's own of another branch, or removed, is a wrong choice.
    if (found.length !== procedureIds.length) throw notFound(T.procedureNotFound);
    if (found.some((row) => row.branch_id !== branchId || row.deleted_at !== null))
      throw new ApiError(400, T.procedureInvalid, { itens: [T.procedureInvalid] });
  }
  return { nome, itens };
}

/** A live category of the tenant (and of the caller's branch for branch-level callers); 400 when none is chosen. */
async function categoryInScope(db: Kysely<DB>, scope: Scope, categoryId: number) {
  if (!categoryId) throw new ApiError(400, T.categoryRequired, { categoriaId: [T.categoryRequired] });
  const branch = scopeBranch(scope);
  const category = await db
    .selectFrom("categories")
    .select(["id", "branch_id"])
    .where("id", "=", categoryId)
    .where("company_id", "=", scope.companyId)
    .where("deleted_at", "is", null)
    .$if(branch !== null, (qb) => qb.where("branch_id", "=", branch!))
    .executeTakeFirst();
  if (!category) throw notFound("Categoria não encontrada");
  return category;
}

async function insertItems(
  trx: Transaction<DB>,
  checklistId: number,
  versao: number,
  itens: ChecklistItemInput[],
  keptKeys: Set<number>,
) {
  await trx
    .insertInto("checklist_items")
    .values(
      itens.map((item, index) => ({
        checklist_id: checklistId,
        versao,
        // An item keeps its key across versions; a new one (or a key not of this checklist) draws the next.
        ...(item.chave && keptKeys.has(item.chave) ? { chave: item.chave } : {}),
        posicao: index + 1,
        texto: item.texto,
        peso: item.peso,
        procedure_id: item.procedimentoId ?? null,
      })),
    )
    .execute();
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

async function categoryFree<T>(work: () => Promise<T>) {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, T.categoryTaken, { categoriaId: [T.categoryTaken] });
    throw error;
  }
}

export async function createChecklist(db: Kysely<DB>, scope: Scope, input: ChecklistInput) {
  const category = await categoryInScope(db, scope, input.categoriaId);
  const { nome, itens } = await checkedInput(db, scope.companyId, category.branch_id, input);
  const id = await categoryFree(() =>
    db.transaction().execute(async (trx) => {
      const [{ n }] = await trx
        .selectFrom("checklists")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("company_id", "=", scope.companyId)
        .execute();
      if (n! >= L.checklistsPerCompany) throw new ApiError(409, T.tooManyChecklists);
      const row = await trx
        .insertInto("checklists")
        .values({ company_id: scope.companyId, branch_id: category.branch_id, category_id: category.id, nome })
        .returning("id")
        .executeTakeFirstOrThrow();
      await insertItems(trx, row.id, 1, itens, new Set());
      return row.id;
    }),
  );
  return readChecklist(db, scope, id);
}

const sameItems = (
  a: { chave: number; texto: string; peso: number; procedure_id: number | null }[],
  b: ChecklistItemInput[],
) =>
  a.length === b.length &&
  a.every(
    (item, index) =>
      item.chave === b[index]!.chave &&
      item.texto === b[index]!.texto &&
      item.peso === b[index]!.peso &&
      item.procedure_id === (b[index]!.procedimentoId ?? null),
  );

/**
 * Saves a checklist: the name and category in place, the items as the next version when they changed (an edit never
 * rewrites the items a past inspection was scored against). The row is locked, so two edits at once make two
 * versions, one after the other.
 */
export async function updateChecklist(db: Kysely<DB>, scope: Scope, id: number, input: ChecklistInput) {
  const current = await readChecklist(db, scope, id);
  const category = await categoryInScope(db, scope, input.categoriaId);
  if (category.branch_id !== current.branch_id)
    throw new ApiError(400, T.categoryRequired, { categoriaId: [T.categoryRequired] });
  const { nome, itens } = await checkedInput(db, scope.companyId, current.branch_id, input);
  await categoryFree(() =>
    db.transaction().execute(async (trx) => {
      const locked = await trx
        .selectFrom("checklists")
        .select("versao")
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const before = await trx
        .selectFrom("checklist_items")
        .select(["chave", "texto", "peso", "procedure_id"])
        .where("checklist_id", "=", id)
        .where("versao", "=", locked.versao)
        .orderBy("posicao")
        .execute();
      const changed = !sameItems(before, itens);
      const versao = changed ? locked.versao + 1 : locked.versao;
      await trx
        .updateTable("checklists")
        .set({ nome, category_id: category.id, versao, updated_at: new Date() })
        .where("id", "=", id)
        .execute();
      if (changed) await insertItems(trx, id, versao, itens, new Set(before.map((item) => item.chave)));
    }),
  );
  return readChecklist(db, scope, id);
}

/**
 * 'Duplicar' to another branch: the same name and items, for the target branch's category of the same name (which
 * must exist) and, item by item, its procedure of the same name (none when it has no such procedure).
 */
export async function duplicateChecklist(db: Kysely<DB>, scope: Scope, id: number, targetBranchId: number) {
  const source = await readChecklist(db, scope, id);
  const branch = await assertBranchInScope(db, scope, targetBranchId);
  if (branch.id === source.branch_id)
    throw new ApiError(400, T.duplicateSameBranch, { filialId: [T.duplicateSameBranch] });
  const target = await db.selectFrom("branches").select("nome").where("id", "=", branch.id).executeTakeFirstOrThrow();
  const category = await db
    .selectFrom("categories")
    .select("id")
    .where("branch_id", "=", branch.id)
    .where(sql<string>`lower(name)`, "=", source.categoria.toLowerCase())
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!category) {
    const message = T.duplicateNoCategory(source.categoria, target.nome);
    throw new ApiError(400, message, { filialId: [message] });
  }
  const names = [
    ...new Set(source.itens.flatMap((item) => (item.procedimento ? [item.procedimento.toLowerCase()] : []))),
  ];
  const procedures =
    names.length === 0
      ? []
      : await db
          .selectFrom("procedures")
          .select(["id", sql<string>`lower(name)`.as("key")])
          .where("branch_id", "=", branch.id)
          .where(sql<string>`lower(name)`, "in", names)
          .where("deleted_at", "is", null)
          .execute();
  const procedureOf = new Map(procedures.map((row) => [row.key, row.id]));
  return createChecklist(db, scope, {
    categoriaId: category.id,
    nome: source.nome,
    itens: source.itens.map((item) => ({
      texto: item.texto,
      peso: item.peso,
      procedimentoId: item.procedimento ? (procedureOf.get(item.procedimento.toLowerCase()) ?? null) : null,
    })),
  });
}

/** The company's pass mark, in percent. */
export async function passMark(db: Kysely<DB>, companyId: number) {
  const row = await db
    .selectFrom("companies")
    .select("nota_minima_inspecao")
    .where("id", "=", companyId)
    .executeTakeFirstOrThrow();
  return Number(row.nota_minima_inspecao);
}

export async function setPassMark(db: Kysely<DB>, scope: Scope, value: number) {
  if (!Number.isFinite(value) || value < 0 || value > 100 || Math.abs(Math.round(value * 10) - value * 10) > 1e-9)
    throw new ApiError(400, T.passMarkInvalid, { notaMinima: [T.passMarkInvalid] });
  await db
    .updateTable("companies")
    .set({ nota_minima_inspecao: String(Math.round(value * 10) / 10) })
    .where("id", "=", scope.companyId)
    .execute();
  return Math.round(value * 10) / 10;
}
