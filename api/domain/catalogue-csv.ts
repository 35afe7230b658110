import { isBlankRow, normaliseHeaderCell, type CsvTable } from "../lib/csv.ts";

import {
  CATALOGUES,
  catalogueTexts,
  csvHeader,
  HEX_COLOR,
  normaliseCatalogueName,
  type CatalogueKind,
} from "./catalogues.ts";

export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_MAX_ROWS = 50_000;
const MAX_REPORTED_ERRORS = 10;

export type CatalogueRow = { line: number; name: string; color?: string };

/**
 * Checks a parsed catalogue CSV against its template: the header, a name on every row, a valid colour for risks,
 * no name twice in the file (case-insensitive). Blank rows are skipped. Line numbers are the spreadsheet's rows
 * (the header is line 1).
 */
export function validateCatalogueCsv(
  kind: CatalogueKind,
  table: CsvTable,
): { rows: CatalogueRow[] } | { errors: string[] } {
  const expected = csvHeader(kind);
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
  const errors: string[] = [];
  const rows: CatalogueRow[] = [];
  const seen = new Map<string, number>();
  const { nameLabel } = catalogueTexts(kind);
  table.rows.forEach((cells, index) => {
    const line = (table.headerLine ?? 1) + 1 + index;
    if (isBlankRow(cells)) return;
    const name = normaliseCatalogueName(cells[0] ?? "");
    const color = (cells[1] ?? "").trim();
    if (!name) return errors.push(`Linha ${line}: o ${nameLabel.toLowerCase()} está vazio.`);
    if (name.length > 120) return errors.push(`Linha ${line}: o nome tem mais de 120 caracteres.`);
    if (CATALOGUES[kind].hasColor && !HEX_COLOR.test(color)) {
      return errors.push(`Linha ${line}: a cor '${color}' é inválida; use o formato #RRGGBB (por exemplo #c62828).`);
    }
    const key = name.toLocaleLowerCase("pt-BR");
    const first = seen.get(key);
    if (first) return errors.push(`Linha ${line}: '${name}' está repetido no arquivo (linha ${first}).`);
    seen.set(key, line);
    rows.push({ line, name, ...(CATALOGUES[kind].hasColor ? { color: color.toLowerCase() } : {}) });
  });
  if (errors.length) return { errors: trimErrors(errors) };
  return { rows };
}

export function trimErrors(errors: string[]) {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  return [...errors.slice(0, MAX_REPORTED_ERRORS), `... e mais ${errors.length - MAX_REPORTED_ERRORS} erro(s).`];
}
