/**
 * What every CSV import shares (spec 000 §5 'Batch', DESIGN.md 'Uploads', docs/decisions/004-catalogues.md 'CSV
 * import'): which uploads count as CSV, the limits, the header check against the template, the spreadsheet line of
 * each row and the cap on reported errors. Pure and browser-safe; reading the bytes (encodings, separators) is
 * api/lib/csv.ts. Used by the catalogue import (catalogue-csv.ts) and the CPF import (pre-registered-cpf-csv.ts).
 */

export const CSV_INVALID =
  "É necessário inserir um arquivo .CSV válido. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.";

export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_TOO_LARGE = "O arquivo é grande demais: o limite é de 5 MB por envio.";
export const CSV_MAX_ROWS = 50_000;
const MAX_REPORTED_ERRORS = 10;

/** headerLine: the header's line in the file (1 unless blank lines come first); rows follow it line by line. */
export type CsvTable = { header: string[]; rows: string[][]; headerLine?: number };

/** One data row of a checked file: its cells and its line in the spreadsheet (the header is line 1). */
export type CsvLine = { line: number; cells: string[] };

/**
 * Whether an upload is a CSV: the spec accepts .csv, application/vnd.ms-excel or text/csv, and browsers differ in
 * what they send for a .csv (Windows with Excel installed sends application/vnd.ms-excel).
 */
export function isCsvFile(file: { name: string; type: string }) {
  return (
    file.name.toLowerCase().endsWith(".csv") || file.type === "text/csv" || file.type === "application/vnd.ms-excel"
  );
}

/** Header cells compared without case, accents or surrounding spaces ('Nome' = 'nome' = ' NOME '). */
export function normaliseHeaderCell(cell: string) {
  return cell
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .trim()
    .toLowerCase();
}

export function isBlankRow(cells: string[]) {
  return cells.every((cell) => cell.trim() === "");
}

/**
 * The checks before any row's own: the header must start with the template's columns (`expected`, normalised;
 * extra columns are ignored), at least one row must follow, at most CSV_MAX_ROWS. Answers the non-blank rows with
 * their spreadsheet line numbers, or the file's one error.
 */
export function csvLines(table: CsvTable, expected: readonly string[]): { lines: CsvLine[] } | { errors: string[] } {
  const header = table.header.map(normaliseHeaderCell);
  if (expected.some((column, index) => header[index] !== column)) {
    return {
      errors: [`Cabeçalho inválido: a primeira linha deve ser '${expected.join(";")}', como no arquivo modelo.`],
    };
  }
  if (table.rows.every(isBlankRow)) return { errors: ["O arquivo não tem nenhuma linha além do cabeçalho."] };
  if (table.rows.length > CSV_MAX_ROWS) {
    return { errors: [`O arquivo tem ${table.rows.length} linhas; o limite é de ${CSV_MAX_ROWS} por envio.`] };
  }
  const first = (table.headerLine ?? 1) + 1;
  const lines: CsvLine[] = [];
  table.rows.forEach((cells, index) => {
    if (!isBlankRow(cells)) lines.push({ line: first + index, cells });
  });
  return { lines };
}

/** At most ten messages, then how many more: a file with a wrong column would otherwise list every row. */
export function trimErrors(errors: string[]) {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  return [...errors.slice(0, MAX_REPORTED_ERRORS), `... e mais ${errors.length - MAX_REPORTED_ERRORS} erro(s).`];
}
