import { sql, type Kysely } from "kysely";

import { assertBranchInScope, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import { trimErrors } from "../domain/csv-import.ts";
import { cnpjSearchDigits } from "../domain/organisation.ts";
import { CPF_CSV_FIELD, cpfCsvLineError, validateCpfCsv, type CpfCsvRow } from "../domain/pre-registered-cpf-csv.ts";
import {
  CPF_TEXTS as T,
  preRegisterLevelsFor,
  STATUS_ACTIONS,
  type StatusAction,
} from "../domain/pre-registered-cpfs.ts";
import type { UserForRole } from "../domain/roles.ts";
import { decodeCsvBytes, parseCsv } from "../lib/csv.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import {
  cappedRows,
  foldSearch,
  listVersionOf,
  onePage,
  pageOf,
  withPageTotal,
  type ListQuery,
} from "../lib/list-query.ts";

/**
 * Pre-registered CPFs of spec 000 §7 'CPFs, users, branches, companies': rules and SQL, called by the HTTP routes,
 * the seed and tests with the caller's scope. A pre-registration belongs to one branch of one main company; a
 * company-level user sees the company's, a branch-level user their own branch's. Removed ones (deleted_at) are gone
 * for every call; sign-up (api/routes/users.ts) accepts only an active one of an active company.
 */

export type PreRegisteredCpfRow = {
  id: number;
  cpf: string;
  ativo: boolean;
  role_id: number | null;
  company_id: number;
  branch_id: number;
  branch_nome: string;
  branch_cnpj: string;
};

/** Who writes: the scope, the role (which levels may be given) and the CPF (no change to one's own). */
export type CpfWriter = { scope: Scope; user: UserForRole & { cpf: string } };

export const CPF_SORTS = ["cpf", "filial", "cnpj", "status"] as const;
export type CpfSort = (typeof CPF_SORTS)[number];
export const DEFAULT_CPF_SORT: CpfSort = "cpf";

function scoped(db: Kysely<DB>, scope: Scope) {
  return db
    .selectFrom("pre_registered_cpfs as p")
    .innerJoin("branches", "branches.id", "p.branch_id")
    .where("p.company_id", "=", scope.companyId)
    .where("p.deleted_at", "is", null)
    .$if(scope.level !== "company", (qb) => qb.where("p.branch_id", "=", (scope as { branchId: number }).branchId));
}

const COLUMNS = [
  "p.id",
  "p.cpf",
  "p.ativo",
  "p.role_id",
  "p.company_id",
  "p.branch_id",
  "branches.nome as branch_nome",
  "branches.cnpj as branch_cnpj",
] as const;

/**
 * Spec 000 §5: the search matches CPF, CNPJ and branch name case-insensitively (accents too). Digits and
 * punctuation alone also match the CPF's and CNPJ's digits, so '123.456' finds 12345678909.
 */
function filtered(db: Kysely<DB>, scope: Scope, q: string | undefined) {
  const search = q?.trim() ? foldSearch(q) : null;
  const digits = cnpjSearchDigits(q);
  return scoped(db, scope).$if(search !== null, (qb) =>
    qb.where((eb) =>
      eb.or([
        eb("branches.nome_folded", "like", search!),
        ...(digits ? [eb("p.cpf", "like", `%${digits}%`), eb("branches.cnpj", "like", `%${digits}%`)] : []),
      ]),
    ),
  );
}

function sortOf(sort: string | undefined) {
  const key = (CPF_SORTS as readonly string[]).includes(sort ?? "") ? (sort as CpfSort) : DEFAULT_CPF_SORT;
  switch (key) {
    case "filial":
      return sql`branches.nome_folded`;
    case "cnpj":
      return sql`branches.cnpj`;
    case "status":
      return sql`p.ativo`;
    default:
      return sql`p.cpf`;
  }
}

/** Every pre-registration in scope, by CPF: the contract's plain array (GET empresas/funcionarios/{companyId}). */
export function listPreRegisteredCpfs(db: Kysely<DB>, scope: Scope): Promise<PreRegisteredCpfRow[]> {
  return cappedRows(scoped(db, scope).select(COLUMNS).orderBy("p.cpf"));
}

/** One page and the total (size 0, 'Todos': the first MAX_PAGE_ROWS rows), searched and sorted in SQL. */
export async function pagePreRegisteredCpfs(db: Kysely<DB>, scope: Scope, query: ListQuery) {
  const base = filtered(db, scope, query.q);
  const { page, size, limit, offset } = pageOf(query);
  const direction = query.dir === "desc" ? "desc" : "asc";
  const rows = await base
    .select([...COLUMNS, listVersionOf(scope.companyId).as("list_version")])
    .orderBy(sortOf(query.sort), direction)
    .orderBy("p.cpf", direction)
    .$call(onePage({ limit, offset }))
    .execute();
  const count = async () =>
    Number((await base.select(sql<string>`count(*)`.as("total")).executeTakeFirstOrThrow()).total);
  // Writes to pre-registrations (migration 009) and to branches, whose names are searched (003), move the version.
  const key = `cpfs|${scope.companyId}|${scope.level === "company" ? "" : scope.branchId}|${query.q?.trim() ?? ""}`;
  return { ...(await withPageTotal(db, rows, { key, companyId: scope.companyId }, count)), page, size };
}

/**
 * Where a pre-registration goes: the caller's own main company (anything else 404) and a branch of it in scope and
 * active (404 outside the scope, 400 'A filial está inativa').
 */
export async function assertCpfTarget(
  db: Kysely<DB>,
  writer: CpfWriter,
  target: { companyId: number; branchId: number },
) {
  if (target.companyId !== writer.scope.companyId) throw notFound("Empresa não encontrada");
  await assertBranchInScope(db, writer.scope, target.branchId, { active: true });
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

const cpfConflict = (message: string) => new ApiError(409, message, { cpf: [message] });

/**
 * A new active pre-registration (POST empresas/saveFuncionarios). The company must be the caller's (404), the
 * branch one of it in scope and active, the level one the caller may give (§6). A CPF pre-registered anywhere
 * (not removed) or already a user's is refused (cpfRefusals says how): sign-up finds one invitation per CPF, and the
 * unique index pre_registered_cpfs_cpf_key backs the check against two concurrent saves.
 */
export async function createPreRegisteredCpf(
  db: Kysely<DB>,
  writer: CpfWriter,
  input: { cpf: string; companyId: number; branchId: number; roleId: number },
): Promise<PreRegisteredCpfRow> {
  await assertCpfTarget(db, writer, input);
  if (!(preRegisterLevelsFor(writer.user) as readonly number[]).includes(input.roleId))
    throw new ApiError(400, T.levelInvalid, { roleId: [T.levelInvalid] });
  const refusal = async () => (await cpfRefusals(db, input.companyId, [input.cpf])).get(input.cpf);
  const taken = await refusal();
  if (taken) throw cpfConflict(taken);
  try {
    const { id } = await db
      .insertInto("pre_registered_cpfs")
      .values({
        company_id: input.companyId,
        branch_id: input.branchId,
        cpf: input.cpf,
        role_id: input.roleId,
        ativo: true,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return await scoped(db, writer.scope).select(COLUMNS).where("p.id", "=", id).executeTakeFirstOrThrow();
  } catch (error) {
    // A concurrent save took the CPF in between: the same answer as the check would have given.
    if (isUniqueViolation(error)) throw cpfConflict((await refusal()) ?? T.unavailable);
    throw error;
  }
}

/**
 * The bulk status change (PUT empresas/ativaInativaDeleteFuncionarios): '1' inactivates, '2' removes (deleted_at:
 * the CPF may be pre-registered again), '3' activates. Nothing selected is 400 'Favor selecionar pelo menos um
 * registro'; the caller's own CPF among them is 403 'O usuário ADMINISTRADOR não pode alterar o PRÓPRIO status';
 * a CPF outside the scope (another tenant's, another branch's, removed, unknown) is 404. All or nothing.
 */
export async function changeCpfStatus(
  db: Kysely<DB>,
  writer: CpfWriter,
  changes: { cpf: string; action: StatusAction }[],
): Promise<number> {
  if (changes.length === 0) throw new ApiError(400, T.noneSelectedDescription);
  if (changes.some((change) => change.cpf === writer.user.cpf)) throw new ApiError(403, T.blockedDescription);
  const cpfs = [...new Set(changes.map((change) => change.cpf))];
  return db.transaction().execute(async (trx) => {
    const found = await scoped(trx, writer.scope).select(["p.id", "p.cpf"]).where("p.cpf", "in", cpfs).execute();
    if (found.length !== cpfs.length) throw notFound(T.notFound);
    const idOf = new Map(found.map((row) => [row.cpf, row.id]));
    for (const action of Object.values(STATUS_ACTIONS)) {
      const ids = changes.filter((change) => change.action === action).map((change) => idOf.get(change.cpf)!);
      if (ids.length === 0) continue;
      await trx
        .updateTable("pre_registered_cpfs")
        .set(
          action === STATUS_ACTIONS.remove ? { deleted_at: new Date() } : { ativo: action === STATUS_ACTIONS.activate },
        )
        .where("id", "in", ids)
        .execute();
    }
    return cpfs.length;
  });
}

const csvRefused = (errors: string[]) => new ApiError(400, errors.join("\n"), { [CPF_CSV_FIELD]: errors });

/** Queries by lists of CPFs go in slices: a file may hold 50,000 rows, a statement at most 65,535 parameters. */
const SLICE = 1000;

function slices<T>(items: T[]) {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += SLICE) out.push(items.slice(start, start + SLICE));
  return out;
}

/**
 * Why each of these CPFs may not be pre-registered, for those that are taken: pre-registered anywhere (not removed)
 * or already a user's. Issue 22: only what is in `companyId`, the writer's own main company, is named ('CPF já
 * pré-cadastrado', then 'Já existe um usuário cadastrado com este CPF'); a CPF held only by another main company, as
 * an invitation or as an account, gets one text (T.unavailable) that tells neither the company nor which of the two.
 */
async function cpfRefusals(db: Kysely<DB>, companyId: number, cpfs: string[]) {
  const refusals = new Map<string, string>();
  const note = (rows: { cpf: string; company_id: number }[], ownText: string) => {
    for (const row of rows) {
      const own = row.company_id === companyId;
      // The own company's reason wins over another's; between the own two, the pre-registration (noted first).
      if (!refusals.has(row.cpf) || (own && refusals.get(row.cpf) === T.unavailable))
        refusals.set(row.cpf, own ? ownText : T.unavailable);
    }
  };
  for (const slice of slices(cpfs)) {
    note(
      await db
        .selectFrom("pre_registered_cpfs")
        .select(["cpf", "company_id"])
        .where("cpf", "in", slice)
        .where("deleted_at", "is", null)
        .execute(),
      T.duplicate,
    );
    note(await db.selectFrom("users").select(["cpf", "company_id"]).where("cpf", "in", slice).execute(), T.userExists);
  }
  return refusals;
}

/**
 * The checks against the database and the inserts, in one transaction: a row whose CPF is already pre-registered or
 * already a user's refuses the file, each named by its line with cpfRefusals' reason. When a concurrent save commits one of the CPFs in between, the unique index stops the
 * insert and the work runs again, now reporting that CPF's line (not a 500).
 */
async function insertCsvRows(
  db: Kysely<DB>,
  target: { companyId: number; branchId: number },
  rows: CpfCsvRow[],
): Promise<number> {
  const cpfs = rows.map((row) => row.cpf);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const refusals = await cpfRefusals(trx, target.companyId, cpfs);
        const errors = rows.flatMap((row) => {
          const refusal = refusals.get(row.cpf);
          return refusal ? [cpfCsvLineError(row.line, refusal)] : [];
        });
        if (errors.length) throw csvRefused(trimErrors(errors));
        for (const slice of slices(rows)) {
          await trx
            .insertInto("pre_registered_cpfs")
            .values(
              slice.map((row) => ({
                company_id: target.companyId,
                branch_id: target.branchId,
                cpf: row.cpf,
                role_id: row.roleId,
                ativo: true,
              })),
            )
            .execute();
        }
        return rows.length;
      });
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * 'Cadastro em lote' (POST empresas/saveCSVFuncionarios): a CSV's bytes into one branch, with the catalogue import's
 * file rules (UTF-8 or Windows-1252, comma, semicolon or tab, the header of the template, 'Linha N: ...' for every
 * problem) and the single pre-registration's row rules (the CPF, the level the caller may give, one pre-registration
 * per CPF). All rows or none. The company must be the caller's (404), the branch one of it in scope and active.
 * Answers how many CPFs were pre-registered.
 */
export async function importPreRegisteredCpfCsv(
  db: Kysely<DB>,
  writer: CpfWriter,
  input: { companyId: number; branchId: number; bytes: Uint8Array },
): Promise<number> {
  await assertCpfTarget(db, writer, input);
  const table = parseCsv(decodeCsvBytes(input.bytes));
  if ("error" in table) throw csvRefused([table.error]);
  const checked = validateCpfCsv(table, preRegisterLevelsFor(writer.user));
  if ("errors" in checked) throw csvRefused(checked.errors);
  const created = await insertCsvRows(db, input, checked.rows);
  // A bulk write: PGlite gathers no statistics by itself (docs/performance.md 'Statistics').
  if (created >= 1000) await sql`analyze pre_registered_cpfs`.execute(db);
  return created;
}
