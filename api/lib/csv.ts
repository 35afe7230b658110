import iconv from "iconv-lite";
import Papa from "papaparse";

import {
  CSV_INVALID,
  CSV_MAX_BYTES,
  CSV_TOO_LARGE,
  isBlankRow,
  isCsvFile,
  type CsvTable,
} from "../domain/csv-import.ts";

import { ApiError } from "./errors.ts";

// The pure pieces live in api/domain/csv-import.ts (browser-safe); re-exported for the readers of this module.
export { isBlankRow, normaliseHeaderCell, type CsvTable } from "../domain/csv-import.ts";

/**
 * Reads a CSV as Excel in pt-BR saves it: UTF-8 with or without BOM, or Windows-1252; comma or semicolon.
 * Bytes that are not valid UTF-8 are read as Windows-1252 (the encoding of 'CSV (separado por vírgulas)').
 */
export function decodeCsvBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    // Not Node's TextDecoder: Node >= 20.18.3 decodes 'windows-1252' as Latin-1 (nodejs/node#60888), losing ’ – € …
    return iconv.decode(Buffer.from(bytes), "win1252");
  }
}

export function parseCsv(text: string): CsvTable | { error: string } {
  // A header without any delimiter is a one-column file (pt-BR Excel writes 'Copa, cozinha' unquoted there): a
  // guess would split such names on the comma, so a tab (never in a name) is used instead.
  const firstLine = /[^\r\n]*\S[^\r\n]*/.exec(text)?.[0] ?? "";
  const oneColumn = ![";", ",", "\t"].some((delimiter) => firstLine.includes(delimiter));
  // The delimiter is guessed on the first lines without blank ones (blank lines confuse papaparse's guess); the file
  // is then read with blank lines kept as empty rows, so line numbers in messages match the spreadsheet's rows.
  const delimiter = oneColumn
    ? "\t"
    : Papa.parse<string[]>(text, { preview: 20, delimitersToGuess: [";", ",", "\t"], skipEmptyLines: "greedy" }).meta
        .delimiter;
  const result = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false });
  const fatal = result.errors.find((error) => error.type === "Quotes");
  if (fatal) return { error: `Linha ${(fatal.row ?? 0) + 1}: aspas sem fechamento.` };
  const data = result.data;
  let headerIndex = 0;
  while (headerIndex < data.length - 1 && isBlankRow(data[headerIndex])) headerIndex++;
  const [header = [], ...rows] = data.slice(headerIndex);
  while (rows.length && isBlankRow(rows[rows.length - 1])) rows.pop();
  return { header: header.map((cell) => cell.trim()), rows, ...(headerIndex ? { headerLine: headerIndex + 1 } : {}) };
}

/**
 * The file of a CSV upload, checked as every import checks it: present, not empty, a CSV by its name or type
 * (400 CSV_INVALID), at most CSV_MAX_BYTES (413). Answers its bytes.
 */
export async function csvUploadBytes(entry: FormDataEntryValue | null): Promise<Uint8Array> {
  if (!(entry instanceof File) || entry.size === 0 || !isCsvFile(entry)) throw new ApiError(400, CSV_INVALID);
  if (entry.size > CSV_MAX_BYTES) throw new ApiError(413, CSV_TOO_LARGE);
  return new Uint8Array(await entry.arrayBuffer());
}

/** An id field of an upload's form (idEmpresaFilial, idEmpresa): digits, spaces around allowed; otherwise NaN. */
export function formId(form: FormData, name: string) {
  const value = form.get(name);
  return typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
}
