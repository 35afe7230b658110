import Papa from "papaparse";

/**
 * Reads a CSV as Excel in pt-BR saves it: UTF-8 with or without BOM, or Windows-1252; comma or semicolon.
 * Bytes that are not valid UTF-8 are read as Windows-1252 (the encoding of 'CSV (separado por vírgulas)').
 */
export function decodeCsvBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

export type CsvTable = { header: string[]; rows: string[][] };

export function parseCsv(text: string): CsvTable | { error: string } {
  const result = Papa.parse<string[]>(text, {
    delimitersToGuess: [";", ",", "\t"],
    skipEmptyLines: "greedy",
  });
  const fatal = result.errors.find((error) => error.type === "Quotes");
  if (fatal) return { error: `Linha ${(fatal.row ?? 0) + 1}: aspas sem fechamento.` };
  const [header = [], ...rows] = result.data;
  return { header: header.map((cell) => cell.trim()), rows };
}

/** Header cells compared without case, accents or surrounding spaces ('Nome' = 'nome' = ' NOME '). */
export function normaliseHeaderCell(cell: string) {
  return cell.normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim().toLowerCase();
}
