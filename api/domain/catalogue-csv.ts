import {
  CATALOGUES,
  catalogueTexts,
  csvHeader,
  HEX_COLOR,
  normaliseCatalogueName,
  type CatalogueKind,
} from "./catalogues.ts";
import { csvLines, trimErrors, type CsvTable } from "./csv-import.ts";

// The limits and the error cap are every CSV import's (csv-import.ts); re-exported for the catalogue's readers.
export { CSV_MAX_BYTES, CSV_MAX_ROWS, trimErrors } from "./csv-import.ts";

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
  const checked = csvLines(table, csvHeader(kind));
  if ("errors" in checked) return checked;
  const errors: string[] = [];
  const rows: CatalogueRow[] = [];
  const seen = new Map<string, number>();
  const { nameLabel } = catalogueTexts(kind);
  checked.lines.forEach(({ line, cells }) => {
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
