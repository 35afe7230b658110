import ExcelJS from "exceljs";
import { fileTypeFromBuffer } from "file-type";
import { sql, type Kysely } from "kysely";

import { assertBranchInScope, type Scope } from "../auth/scope.ts";
import type { DB } from "../db/schema.ts";
import {
  IMPORT_MAX_ROWS,
  IMPORT_TEXTS,
  rejectedMessage,
  tooManyRows,
  validateEnvironmentImport,
  type EnvironmentImportRow,
  type ImportTable,
} from "../domain/environment-import.ts";
import { decodeCsvBytes, parseCsv } from "../lib/csv.ts";
import { ApiError } from "../lib/errors.ts";

import { environmentFormOptions } from "./environments.ts";

/**
 * The spreadsheet importer of environments (issue 10; docs/environments.md 'Importing environments'): an .xlsx (first
 * sheet) or a CSV (UTF-8 or Windows-1252, ';' or ','), every row checked against the branch first
 * (api/domain/environment-import.ts), then all rows written in one transaction, or none.
 */

export type UploadedSpreadsheet = { name: string; type: string; bytes: Uint8Array };

/** A refused import: every problem found (capped), each naming its line; nothing was written. */
export class EnvironmentImportRejected extends ApiError {
  constructor(
    public errors: string[],
    total = errors.length,
  ) {
    super(400, total === 1 ? errors[0] : rejectedMessage(total), { file: errors });
  }

  /** The 400 answer: { message, errors, fieldErrors: { file } } (the web client reads fieldErrors). */
  body() {
    return { message: this.message, errors: this.errors, fieldErrors: { file: this.errors } };
  }
}

const reject = (error: string) => new EnvironmentImportRejected([error]);

/**
 * An .xlsx is a zip whose parts exceljs inflates in memory. The declared size of its parts is read from the zip's
 * central directory before that, so a small upload that inflates to gigabytes is refused up front. 5,000 rows of
 * the template inflate to a few MB; 32 MB leaves room for long lists and formatting.
 */
export const XLSX_MAX_INFLATED = 32 * 1024 * 1024;
const XLSX_MAX_PARTS = 2000;

/** The sum of the uncompressed sizes a zip declares, or null when its central directory cannot be read. */
export function zipInflatedSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // End of central directory: 22 bytes plus a comment of up to 65,535, at the very end.
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (entries > XLSX_MAX_PARTS || entries === 0xffff) return Number.POSITIVE_INFINITY;
  let total = 0;
  for (let entry = 0; entry < entries; entry++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) return null;
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff) return Number.POSITIVE_INFINITY; // zip64: far beyond any template
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

/** A cell as the user sees it: text, a number's digits, a formula's result, a date as dd/MM/yyyy. */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  const result = value && typeof value === "object" && "result" in value ? value.result : value;
  if (result instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${pad(result.getUTCDate())}/${pad(result.getUTCMonth() + 1)}/${result.getUTCFullYear()}`;
  }
  return cell.text ?? "";
}

async function readXlsx(bytes: Uint8Array): Promise<ImportTable> {
  const inflated = zipInflatedSize(bytes);
  if (inflated === null) throw reject(IMPORT_TEXTS.unreadableXlsx);
  if (inflated > XLSX_MAX_INFLATED) throw reject(IMPORT_TEXTS.tooLarge);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes.slice().buffer);
  } catch {
    throw reject(IMPORT_TEXTS.unreadableXlsx);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw reject(IMPORT_TEXTS.noSheet);
  // The header and the rows under it; counted before reading the cells, so a huge sheet stops here.
  if (sheet.actualRowCount - 1 > IMPORT_MAX_ROWS) throw reject(tooManyRows(sheet.actualRowCount - 1));
  const lines: { line: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell);
    });
    lines.push({ line, cells: Array.from(cells, (cell) => cell ?? "") });
  });
  const start = lines.findIndex((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (start < 0) return { header: [], headerLine: 1, rows: [] };
  return { header: lines[start].cells, headerLine: lines[start].line, rows: lines.slice(start + 1) };
}

function readCsv(bytes: Uint8Array): ImportTable {
  const table = parseCsv(decodeCsvBytes(bytes));
  if ("error" in table) throw reject(table.error);
  const headerLine = table.headerLine ?? 1;
  return {
    header: table.header,
    headerLine,
    rows: table.rows.map((cells, index) => ({ line: headerLine + 1 + index, cells })),
    strictWidth: true,
  };
}

/** Text has no NUL bytes (binary files do; so does UTF-16, which Excel calls 'Texto Unicode' and we do not read). */
function looksLikeText(bytes: Uint8Array) {
  return !bytes.subarray(0, 64 * 1024).includes(0);
}

/**
 * The table of an upload, told apart by its bytes (not its name): an .xlsx workbook's first sheet, or a CSV. Any
 * other file (an old .xls, a PDF, an image, a Word document) is refused.
 */
export async function readSpreadsheet(file: UploadedSpreadsheet): Promise<ImportTable> {
  const detected = await fileTypeFromBuffer(file.bytes);
  if (detected?.ext === "xlsx") return readXlsx(file.bytes);
  if (detected?.ext === "cfb" || detected?.ext === "xls") throw reject(IMPORT_TEXTS.oldExcel);
  if (detected || !looksLikeText(file.bytes)) throw reject(IMPORT_TEXTS.fileRequired);
  return readCsv(file.bytes);
}

/** The branch's live environment names, by lower case (as the unique index environments_name_key compares them). */
async function environmentNames(db: Kysely<DB>, branchId: number) {
  const rows = await db
    .selectFrom("environments")
    .select(["name", sql<string>`lower(name)`.as("key")])
    .where("branch_id", "=", branchId)
    .where("deleted_at", "is", null)
    .execute();
  return new Map(rows.map((row) => [row.key, row.name]));
}

/** Rows per INSERT: 6 parameters per environment, 3 per link, far below PostgreSQL's 65,535. */
const CHUNK = 1000;
const LINK_CHUNK = 5000;

async function insertRows(trx: Kysely<DB>, scope: Scope, branchId: number, rows: EnvironmentImportRow[]) {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const inserted = await trx
      .insertInto("environments")
      .values(
        chunk.map((row) => ({
          company_id: scope.companyId,
          branch_id: branchId,
          name: row.name,
          andar: row.andar,
          category_id: row.categoriaId,
          sector_id: row.setorId,
        })),
      )
      .returning(["id", "name"])
      .execute();
    // Names are unique within the file, so each new row is found by its name (RETURNING's order is not promised).
    const idOf = new Map(inserted.map((row) => [row.name, row.id]));
    const risks = chunk.flatMap((row) =>
      row.riscos.map((risk_id) => ({ environment_id: idOf.get(row.name)!, risk_id })),
    );
    const procedures = chunk.flatMap((row) => [
      ...row.procedures.map((procedure_id) => ({ environment_id: idOf.get(row.name)!, procedure_id, mandatory: true })),
      ...row.proceduresNotMandatory.map((procedure_id) => ({
        environment_id: idOf.get(row.name)!,
        procedure_id,
        mandatory: false,
      })),
    ]);
    for (let at = 0; at < risks.length; at += LINK_CHUNK) {
      await trx
        .insertInto("environment_risks")
        .values(risks.slice(at, at + LINK_CHUNK))
        .execute();
    }
    for (let at = 0; at < procedures.length; at += LINK_CHUNK) {
      await trx
        .insertInto("environment_procedures")
        .values(procedures.slice(at, at + LINK_CHUNK))
        .execute();
    }
  }
}

const isUniqueViolation = (error: unknown) =>
  typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

/**
 * Imports a spreadsheet into one active branch of the scope, all rows or none: the file is read, then in one
 * transaction the branch's catalogues and environment names are loaded, every row is checked (a refusal lists every
 * problem, nothing is written) and the rows are inserted with their risks and procedures. When a concurrent request
 * committed one of the names in between, the unique index stops the insert and the whole check runs again, now
 * reporting that row. Answers how many environments were created.
 */
export async function importEnvironments(
  db: Kysely<DB>,
  scope: Scope,
  branchId: number,
  file: UploadedSpreadsheet,
): Promise<number> {
  await assertBranchInScope(db, scope, branchId, { active: true });
  const table = await readSpreadsheet(file);
  let created = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      created = await db.transaction().execute(async (trx) => {
        await assertBranchInScope(trx, scope, branchId, { active: true });
        const catalogues = await environmentFormOptions(trx, scope, branchId);
        const checked = validateEnvironmentImport(table, catalogues, await environmentNames(trx, branchId));
        if ("errors" in checked) throw new EnvironmentImportRejected(checked.errors, checked.total);
        await insertRows(trx, scope, branchId, checked.rows);
        return checked.rows.length;
      });
      break;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
  // PGlite gathers no statistics by itself: a bulk write analyses what it grew (docs/performance.md 'Statistics').
  if (created >= 1000) await sql`analyze environments, environment_risks, environment_procedures`.execute(db);
  return created;
}
