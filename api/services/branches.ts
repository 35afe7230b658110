import { sql, type Kysely } from "kysely";

import type { Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { BRANCH_TEXTS as T, cnpjSearchDigits } from "../domain/organisation.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  foldSearch,
  listVersionOf,
  onePage,
  pageOf,
  cappedRows,
  withPageTotal,
  type ListQuery,
} from "../lib/list-query.ts";

/**
 * Branches (filiais) of spec 000 §7 'CPFs, users, branches, companies': rules and SQL, called by the HTTP routes, the
 * seed and tests with the caller's scope. A branch belongs to one main company (the tenant); a company-level user
 * sees all of its branches, a branch-level user or a client only their own. Writes need the caller's CPF among the
 * company's master CPFs (cpfUserMaster, spec 000 §6); whether the caller's role may write is the route's check.
 */

/** A branch as every answer needs it. */
export type BranchRow = {
  id: number;
  nome: string;
  cnpj: string;
  endereco: string;
  numero: string;
  ativo: boolean;
  company_id: number;
};

/** The fields of a create or an edit (the contract's NOME, CNPJ digits, ENDERECO, NUMERO; ATIVO on edit). */
export type BranchInput = { nome: string; cnpj: string; endereco: string; numero: string };

/** Who writes: the scope and the CPF the master-CPF rule reads. */
export type BranchWriter = { scope: Scope; cpf: string };

const COLUMNS = ["id", "nome", "cnpj", "endereco", "numero", "ativo", "company_id"] as const;

/** The list's sortable columns (the web list's headers), each on a value the database keeps or a plain column. */
export const BRANCH_SORTS = ["id", "nome", "cnpj", "endereco", "numero", "status"] as const;
export type BranchSort = (typeof BRANCH_SORTS)[number];
export const DEFAULT_BRANCH_SORT: BranchSort = "nome";

function scoped(db: Kysely<DB>, scope: Scope) {
  return db
    .selectFrom("branches")
    .where("branches.company_id", "=", scope.companyId)
    .$if(scope.level !== "company", (qb) => qb.where("branches.id", "=", (scope as { branchId: number }).branchId));
}

/** Every branch in scope (active or not), by folded name: the contract's plain array (GET empresas/filiais). */
export async function listBranches(db: Kysely<DB>, scope: Scope): Promise<BranchRow[]> {
  // nome_folded: the name folded by the database (migration 003), in the order of branches_company_sort_idx.
  return cappedRows(scoped(db, scope).select(COLUMNS).orderBy("nome_folded").orderBy("id"));
}

/**
 * The search: the folded name or address (LIKE on the columns migrations 003 and 005 keep), or the CNPJ's digits
 * when the term is written like one (cnpjSearchDigits). A company has few branches, so the page and its total are read in the scope index.
 */
function filtered(db: Kysely<DB>, scope: Scope, q: string | undefined) {
  const search = q?.trim() ? foldSearch(q) : null;
  const digits = cnpjSearchDigits(q);
  return {
    query: scoped(db, scope).$if(search !== null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb("branches.nome_folded", "like", search!),
          eb("branches.endereco_folded", "like", search!),
          ...(digits ? [eb("branches.cnpj", "like", `%${digits}%`)] : []),
        ]),
      ),
    ),
    search,
  };
}

function sortOf(sort: string | undefined) {
  const key = (BRANCH_SORTS as readonly string[]).includes(sort ?? "") ? (sort as BranchSort) : DEFAULT_BRANCH_SORT;
  switch (key) {
    case "id":
      return [sql`branches.id`];
    case "cnpj":
      return [sql`branches.cnpj`];
    case "endereco":
      return [sql`branches.endereco_folded`];
    // Digits only (the field rule): shorter numbers first, so 20 comes before 100.
    case "numero":
      return [sql`length(branches.numero)`, sql`branches.numero`];
    case "status":
      return [sql`branches.ativo`];
    default:
      return [sql`branches.nome_folded`];
  }
}

/** One page of the branches in scope and the total (size 0, 'Todos': up to MAX_PAGE_ROWS rows on one page), searched and sorted in SQL. */
export async function pageBranches(db: Kysely<DB>, scope: Scope, query: ListQuery) {
  const { query: rowsQuery, search } = filtered(db, scope, query.q);
  const { page, size, limit, offset } = pageOf(query);
  const direction = query.dir === "desc" ? "desc" : "asc";
  let ordered = rowsQuery.select([...COLUMNS, listVersionOf(scope.companyId).as("list_version")]);
  for (const key of sortOf(query.sort)) ordered = ordered.orderBy(key, direction);
  const rows = await ordered.orderBy("branches.id", direction).$call(onePage({ limit, offset })).execute();
  const count = async () =>
    Number((await rowsQuery.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow()).total);
  // The total is cached with the company's list version (branches' writes move it: migration 003's triggers).
  const key = `branches|${scope.companyId}|${scope.level === "company" ? "" : scope.branchId}|${search ?? ""}`;
  return { ...(await withPageTotal(db, rows, { key, companyId: scope.companyId }, count)), page, size };
}

/** One branch in scope, or 404. */
export async function findBranch(db: Kysely<DB>, scope: Scope, id: number): Promise<BranchRow> {
  const row = await scoped(db, scope).select(COLUMNS).where("branches.id", "=", id).executeTakeFirst();
  if (!row) throw notFound(T.notFound);
  return row;
}

/** Whether this CPF is one of the company's master CPFs (cpfUserMaster, spec 000 §6). */
export async function isMasterOf(db: Kysely<DB>, cpf: string, companyId: number) {
  const row = await db
    .selectFrom("master_cpfs")
    .select("cpf")
    .where("cpf", "=", cpf)
    .where("company_id", "=", companyId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The company a write names must be the caller's (404 otherwise, never a hint about another tenant), and the
 * caller's CPF one of its master CPFs: 'Para cadastrar uma nova FILIAL entre em contato com o administrador do
 * sistema' (403) otherwise, the text of spec 000 §6 the web shows under 'Permissão negada!'.
 */
async function assertMayWrite(db: Kysely<DB>, writer: BranchWriter, companyId: number) {
  if (companyId !== writer.scope.companyId || writer.scope.level !== "company")
    throw notFound("Empresa não encontrada");
  if (!(await isMasterOf(db, writer.cpf, companyId))) throw new ApiError(403, T.deniedDescription);
}

function duplicateName() {
  return new ApiError(409, T.duplicateDescription, { NOME: [T.duplicateDescription] });
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

/** Spec 000 §5: a name the company already has (case-insensitive, the branch itself excluded on edit) is refused. */
async function assertNameFree(db: Kysely<DB>, companyId: number, nome: string, exceptId?: number) {
  const clash = await db
    .selectFrom("branches")
    .select("id")
    .where("company_id", "=", companyId)
    .where(sql`lower(nome)`, "=", nome.toLowerCase())
    .$if(exceptId !== undefined, (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  if (clash) throw duplicateName();
}

/**
 * A new branch of the caller's main company (POST empresas/saveEmpresaFilial), active. The unique index
 * branches_name_key backs the name check, so two concurrent creates of one name cannot both win.
 */
export async function createBranch(
  db: Kysely<DB>,
  writer: BranchWriter,
  companyId: number,
  input: BranchInput,
): Promise<BranchRow> {
  await assertMayWrite(db, writer, companyId);
  await assertNameFree(db, companyId, input.nome);
  try {
    return await db
      .insertInto("branches")
      .values({ company_id: companyId, ...input, ativo: true })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}

/**
 * Every field of a branch and its status (PUT empresas/updateEmpresaFilial). An inactive branch disappears from
 * every selector (the web keeps ATIVO true only) and takes no new catalogue items or environments (the services'
 * assertBranchInScope with active: true); what it already holds stays.
 */
export async function updateBranch(
  db: Kysely<DB>,
  writer: BranchWriter,
  id: number,
  companyId: number,
  input: BranchInput & { ativo: boolean },
): Promise<BranchRow> {
  const branch = await findBranch(db, writer.scope, id);
  await assertMayWrite(db, writer, companyId);
  // The contract sends Id_Empresas; a branch does not move between companies.
  if (branch.company_id !== companyId) throw notFound(T.notFound);
  await assertNameFree(db, companyId, input.nome, id);
  try {
    return await db
      .updateTable("branches")
      .set(input)
      .where("id", "=", id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateName();
    throw error;
  }
}
