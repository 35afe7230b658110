import { normaliseCatalogueName } from "./catalogues.ts";
import {
  ENVIRONMENT_ANDAR_MAX,
  ENVIRONMENT_NAME_MAX,
  ENVIRONMENT_TEXTS as T,
  procedureConflicts,
  procedureListIssues,
} from "./environments.ts";

/**
 * The spreadsheet importer of environments (issue 10, spec 000 §2 'a link to a spreadsheet importer'): the template's
 * columns and instructions, and the pure check of every row against the branch's catalogues and environments. The
 * service (api/services/environment-import.ts) reads the file and writes the rows; the web app builds the template
 * from the same columns. Browser-safe: no I/O here.
 */

export const IMPORT_MAX_ROWS = 5000;
/** Errors listed in one answer; the rest are counted in a last line. */
export const IMPORT_MAX_LISTED_ERRORS = 50;
/** The list separator inside a cell (Riscos, Procedimentos ...). A comma works too: see resolveNames. */
export const LIST_SEPARATOR = ";";

export const IMPORT_TEXTS = {
  title: "Importar ambientes",
  fileLabel: "Planilha (.xlsx ou .csv)",
  template: "Baixar modelo",
  submit: "Importar",
  failedTitle: "Erro ao importar ambientes",
  nothingWritten: "Nenhum ambiente foi gravado. Corrija as linhas indicadas e envie o arquivo de novo.",
  branchRequired: "Escolha a empresa",
  fileRequired:
    "É necessário enviar uma planilha .xlsx ou um arquivo .csv. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.",
  oldExcel:
    'Planilhas .xls (Excel 97-2003) não são aceitas: no Excel, use "Salvar como" e escolha "Pasta de Trabalho do Excel (.xlsx)" ou "CSV".',
  unreadableXlsx: "Não foi possível ler a planilha .xlsx. Confira se o arquivo abre no Excel e envie de novo.",
  noSheet: "A planilha não tem nenhuma aba.",
  tooLarge: `A planilha é grande demais para importar: o limite é de ${IMPORT_MAX_ROWS.toLocaleString("pt-BR")} ambientes por arquivo.`,
  empty: "O arquivo está vazio. Favor baixar o arquivo modelo pré-formatado para o preenchimento correto.",
  noRows: "O arquivo não tem nenhuma linha além do cabeçalho.",
} as const;

/** 'N ambiente(s) importado(s) com sucesso', the toast of the list after an import. */
export const importedMessage = (count: number) => `${count} ambiente(s) importado(s) com sucesso`;

/** A file over the row limit (the header not counted). */
export const tooManyRows = (count: number) =>
  `O arquivo tem ${count.toLocaleString("pt-BR")} linhas de ambientes; o limite é de ${IMPORT_MAX_ROWS.toLocaleString("pt-BR")} por arquivo.`;

/** The answer's message when rows are refused. */
export const rejectedMessage = (count: number) => `A planilha tem ${count} erro(s); nenhum ambiente foi importado.`;

export type ImportColumnKey = "name" | "categoria" | "setor" | "andar" | "riscos" | "obrigatorios" | "opcionais";

/**
 * The template's columns, in order. `aliases` are other headers read as the same column (compared without case or
 * accents): the list's 'Exportar Excel' names the first column 'Ambiente', so an export can be imported as it is.
 */
export const IMPORT_COLUMNS: readonly { key: ImportColumnKey; header: string; aliases: readonly string[] }[] = [
  { key: "name", header: "Nome do ambiente", aliases: ["Ambiente", "Nome"] },
  { key: "categoria", header: "Categoria", aliases: [] },
  { key: "setor", header: "Setor", aliases: [] },
  { key: "andar", header: "Andar", aliases: [] },
  { key: "riscos", header: "Riscos", aliases: ["Risco"] },
  { key: "obrigatorios", header: "Procedimentos obrigatórios", aliases: ["Procedimento obrigatório"] },
  { key: "opcionais", header: "Procedimentos opcionais", aliases: ["Procedimento opcional"] },
];
export const IMPORT_HEADER = IMPORT_COLUMNS.map((column) => column.header);

/** The 'Instruções' sheet of the template, one paragraph per line. */
export const IMPORT_INSTRUCTIONS: readonly string[] = [
  "Como preencher a planilha de ambientes",
  "Preencha a aba 'Ambientes': um ambiente por linha, a partir da linha 2. Não altere a primeira linha (o cabeçalho) e apague a linha de exemplo.",
  `Nome do ambiente: obrigatório, até ${ENVIRONMENT_NAME_MAX} caracteres. Não pode repetir o nome de um ambiente da filial nem o de outra linha da planilha (maiúsculas e minúsculas não diferem).`,
  "Categoria: obrigatória; o nome de uma categoria cadastrada na filial.",
  "Setor: obrigatório; o nome de um setor cadastrado na filial.",
  `Andar: obrigatório, até ${ENVIRONMENT_ANDAR_MAX} caracteres (por exemplo Térreo, 1º andar).`,
  'Riscos: ao menos um; nomes de riscos cadastrados na filial separados por ponto e vírgula (;), por exemplo "Biológico; Químico".',
  "Procedimentos obrigatórios e Procedimentos opcionais: ao menos um procedimento em uma das duas colunas, nomes separados por ponto e vírgula (;). Um procedimento não pode estar nas duas colunas.",
  "Os nomes são comparados sem diferenciar maiúsculas, minúsculas e acentos ('biologico' encontra 'Biológico'). Uma lista sem ponto e vírgula também pode usar a vírgula, como na exportação 'Exportar Excel', quando nenhum dos nomes tem vírgula.",
  "Categorias, setores, riscos e procedimentos precisam estar cadastrados antes: a importação não os cria. A aba 'Cadastros da filial' lista os nomes da filial escolhida ao baixar o modelo.",
  "A empresa/filial dos ambientes é a escolhida na página de importação.",
  `A importação é tudo ou nada: se alguma linha tiver erro, nenhum ambiente é gravado e a página lista os erros com o número da linha. Limite: ${IMPORT_MAX_ROWS.toLocaleString("pt-BR")} ambientes por arquivo.`,
  "Também é aceito um arquivo CSV com o mesmo cabeçalho (UTF-8 ou Windows-1252, separado por ponto e vírgula ou vírgula); no CSV, escreva entre aspas uma célula que tenha o separador.",
];

// ---------------------------------------------------------------------------------------------------------------
// Names

/**
 * A name as the importer compares it: trimmed, inner spaces collapsed (as stored), lower case, without accents
 * ('  Área  Química ' and 'area quimica' are the same name).
 */
export function foldImportName(value: string) {
  return normaliseCatalogueName(value)
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

/** The names of a list cell, split on ';', each trimmed; empty pieces dropped ('a; ;b;' → ['a', 'b']). */
export function splitNames(cell: string): string[] {
  return cell
    .split(LIST_SEPARATOR)
    .map(normaliseCatalogueName)
    .filter((name) => name !== "");
}

export type NamedItem = { id: number; name: string };
type Match<T> = { item: T } | { ambiguous: T[] } | null;

/**
 * One catalogue's names, looked up as the importer reads them: the name as written (spaces normalised) first, then
 * ignoring case, then ignoring case and accents. Two items that differ only in accents ('Área', 'Area') are told
 * apart by writing the accents; written without, the name is ambiguous.
 */
export class NameIndex<T extends NamedItem = NamedItem> {
  private exact = new Map<string, T>();
  private lower = new Map<string, T>();
  private folded = new Map<string, T[]>();

  constructor(items: readonly T[]) {
    for (const item of items) {
      const name = normaliseCatalogueName(item.name);
      if (!this.exact.has(name)) this.exact.set(name, item);
      if (!this.lower.has(name.toLowerCase())) this.lower.set(name.toLowerCase(), item);
      const key = foldImportName(name);
      this.folded.set(key, [...(this.folded.get(key) ?? []), item]);
    }
  }

  find(text: string): Match<T> {
    const name = normaliseCatalogueName(text);
    const found = this.exact.get(name) ?? this.lower.get(name.toLowerCase());
    if (found) return { item: found };
    const candidates = this.folded.get(foldImportName(name)) ?? [];
    if (candidates.length === 1) return { item: candidates[0] };
    return candidates.length ? { ambiguous: candidates } : null;
  }
}

export type ResolvedNames<T extends NamedItem = NamedItem> = {
  items: T[];
  /** Names that match nothing. */
  missing: string[];
  /** Names that match several items (differing only in accents), with those items. */
  ambiguous: { name: string; items: T[] }[];
};

/**
 * A list cell's names resolved against a catalogue. The cell is split on ';'. A piece that is not a name itself but
 * has commas is split on them too when every part is a name: the list export joins names with ', ', and a name may
 * itself have a comma ('Copa, cozinha'), which is why ';' is the separator the template asks for. Each item once,
 * in the cell's order.
 */
export function resolveNames<T extends NamedItem>(cell: string, index: NameIndex<T>): ResolvedNames<T> {
  const result: ResolvedNames<T> = { items: [], missing: [], ambiguous: [] };
  const add = (name: string, match: Match<T>) => {
    if (match && "item" in match) {
      if (!result.items.includes(match.item)) result.items.push(match.item);
    } else if (match) result.ambiguous.push({ name, items: match.ambiguous });
    else result.missing.push(name);
  };
  for (const piece of splitNames(cell)) {
    const match = index.find(piece);
    if (match || !piece.includes(",")) {
      add(piece, match);
      continue;
    }
    const parts = piece
      .split(",")
      .map(normaliseCatalogueName)
      .filter((part) => part !== "");
    const matches = parts.map((part) => index.find(part));
    if (matches.every((part) => part === null)) add(piece, null);
    else parts.forEach((part, position) => add(part, matches[position]));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// The table and its rows

/** A spreadsheet as read from the file: its header cells and its other rows with their line numbers (header = its own). */
export type ImportTable = {
  header: string[];
  headerLine: number;
  rows: { line: number; cells: string[] }[];
  /** CSV: a non-empty cell beyond the header's columns is an error (a list split by an unquoted separator). */
  strictWidth?: boolean;
};

/** The branch's live catalogues, as api/services/environments.ts environmentFormOptions answers them. */
export type BranchCatalogues = {
  categories: readonly NamedItem[];
  sectors: readonly NamedItem[];
  risks: readonly NamedItem[];
  procedures: readonly NamedItem[];
};

/** A checked row, ready to insert: the payload of POST /environments and its line. */
export type EnvironmentImportRow = {
  line: number;
  name: string;
  andar: string;
  categoriaId: number;
  setorId: number;
  riscos: number[];
  procedures: number[];
  proceduresNotMandatory: number[];
};

export type ImportCheck = { rows: EnvironmentImportRow[] } | { errors: string[]; total: number };

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === "");
const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(", ");
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** The first `IMPORT_MAX_LISTED_ERRORS` errors, and a last line counting the others. */
export function capErrors(errors: readonly string[]): string[] {
  if (errors.length <= IMPORT_MAX_LISTED_ERRORS) return [...errors];
  const rest = errors.length - IMPORT_MAX_LISTED_ERRORS;
  return [...errors.slice(0, IMPORT_MAX_LISTED_ERRORS), `... e mais ${rest} erro(s).`];
}

/**
 * Where each column is in the header (compared without case, accents or surrounding spaces; aliases accepted; other
 * columns ignored), or the header's problem.
 */
export function importColumns(header: readonly string[]): Record<ImportColumnKey, number> | { error: string } {
  const cells = header.map(foldImportName);
  if (cells.every((cell) => cell === "")) return { error: IMPORT_TEXTS.empty };
  const found: Partial<Record<ImportColumnKey, number>> = {};
  const missing: string[] = [];
  for (const column of IMPORT_COLUMNS) {
    const names = [column.header, ...column.aliases].map(foldImportName);
    const positions = cells.flatMap((cell, position) => (names.includes(cell) ? [position] : []));
    if (positions.length > 1) {
      return { error: `Cabeçalho inválido: a coluna "${column.header}" aparece ${positions.length} vezes.` };
    }
    if (positions.length) found[column.key] = positions[0];
    else missing.push(column.header);
  }
  if (missing.length) {
    const what = missing.length === 1 ? "falta a coluna" : "faltam as colunas";
    return {
      error: `Cabeçalho inválido: ${what} ${quoted(missing)}. A primeira linha deve ter as colunas do arquivo modelo: ${IMPORT_HEADER.join(", ")}.`,
    };
  }
  return found as Record<ImportColumnKey, number>;
}

type CatalogueLabel = { label: string; notFound: string; one: string };
const LABELS = {
  categoria: { label: "categoria", notFound: "não encontrada", one: "uma categoria" },
  setor: { label: "setor", notFound: "não encontrado", one: "um setor" },
  riscos: { label: "risco", notFound: "não encontrado", one: "um risco" },
  obrigatorios: { label: "procedimento obrigatório", notFound: "não encontrado", one: "um procedimento" },
  opcionais: { label: "procedimento opcional", notFound: "não encontrado", one: "um procedimento" },
} satisfies Record<string, CatalogueLabel>;

function nameErrors(line: number, what: CatalogueLabel, resolved: ResolvedNames) {
  return [
    ...resolved.missing.map((name) => `Linha ${line}: ${what.label} "${name}" ${what.notFound}`),
    ...resolved.ambiguous.map(
      ({ name, items }) =>
        `Linha ${line}: ${what.label} "${name}" corresponde a mais de ${what.one} da filial (${quoted(items.map((item) => item.name))}); escreva o nome como está cadastrado`,
    ),
  ];
}

/**
 * Checks every row of an import (spec 000 §5 'Environments', the form's rules) against one branch: the header; a
 * name (at most 120 characters) on every row, not twice in the file and not already an environment of the branch
 * (case-insensitive, `existing` holds the branch's live names by lower case, as the unique index compares them); a
 * category and a sector of the branch; a floor (at most 60); at least one risk; at least one procedure in either list
 * and none in both. Names of catalogue items are matched ignoring case and accents. Blank rows are skipped. Every
 * problem is reported with its line (the spreadsheet's row number), all of them at once.
 */
export function validateEnvironmentImport(
  table: ImportTable,
  catalogues: BranchCatalogues,
  existing: ReadonlyMap<string, string>,
): ImportCheck {
  const fail = (error: string): ImportCheck => ({ errors: [error], total: 1 });
  const columns = importColumns(table.header);
  if ("error" in columns) return fail(columns.error);
  const rows = table.rows.filter((row) => !isBlank(row.cells));
  if (!rows.length) return fail(IMPORT_TEXTS.noRows);
  if (rows.length > IMPORT_MAX_ROWS) return fail(tooManyRows(rows.length));

  const indexes = {
    categoria: new NameIndex(catalogues.categories),
    setor: new NameIndex(catalogues.sectors),
    riscos: new NameIndex(catalogues.risks),
    procedures: new NameIndex(catalogues.procedures),
  };
  const width = table.header.length;
  const errors: string[] = [];
  const checked: EnvironmentImportRow[] = [];
  const seen = new Map<string, number>();

  for (const { line, cells } of rows) {
    const cell = (key: ImportColumnKey) => cells[columns[key]] ?? "";
    const rowErrors: string[] = [];
    const say = (message: string) => rowErrors.push(`Linha ${line}: ${message}`);

    if (table.strictWidth && cells.slice(width).some((value) => value.trim() !== "")) {
      say(
        `a linha tem mais colunas que o cabeçalho; no CSV, escreva entre aspas a célula que tiver o separador do arquivo`,
      );
    }

    const name = normaliseCatalogueName(cell("name"));
    if (!name) say(lowerFirst(T.nameRequired));
    else if (name.length > ENVIRONMENT_NAME_MAX) say(`nome do ambiente tem mais de ${ENVIRONMENT_NAME_MAX} caracteres`);
    else {
      const key = name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) say(`ambiente "${name}" repetido na planilha (linha ${first})`);
      else seen.set(key, line);
      if (existing.has(key)) say(`${lowerFirst(T.duplicateDescription)} ("${existing.get(key)}")`);
    }

    /** Category and sector: one name, the whole cell as written (a name may have a comma or a semicolon). */
    const single = (key: "categoria" | "setor", required: string) => {
      const text = normaliseCatalogueName(cell(key));
      if (!text) return void say(required);
      const match = indexes[key].find(text);
      if (match && "item" in match) return match.item.id;
      const resolved: ResolvedNames = match
        ? { items: [], missing: [], ambiguous: [{ name: text, items: match.ambiguous }] }
        : { items: [], missing: [text], ambiguous: [] };
      rowErrors.push(...nameErrors(line, LABELS[key], resolved));
      return undefined;
    };
    const categoriaId = single("categoria", "categoria é obrigatória");
    const setorId = single("setor", "setor é obrigatório");

    const andar = normaliseCatalogueName(cell("andar"));
    if (!andar) say(lowerFirst(T.andarRequired));
    else if (andar.length > ENVIRONMENT_ANDAR_MAX) say(`andar tem mais de ${ENVIRONMENT_ANDAR_MAX} caracteres`);

    const risks = resolveNames(cell("riscos"), indexes.riscos);
    rowErrors.push(...nameErrors(line, LABELS.riscos, risks));
    if (!risks.items.length && !risks.missing.length && !risks.ambiguous.length) {
      say(`informe ao menos um risco na coluna "Riscos"`);
    }

    const mandatory = resolveNames(cell("obrigatorios"), indexes.procedures);
    const optional = resolveNames(cell("opcionais"), indexes.procedures);
    rowErrors.push(...nameErrors(line, LABELS.obrigatorios, mandatory));
    rowErrors.push(...nameErrors(line, LABELS.opcionais, optional));
    const lists = {
      procedures: mandatory.items.map((item) => item.id),
      proceduresNotMandatory: optional.items.map((item) => item.id),
    };
    const written = [mandatory, optional].some((list) => list.missing.length || list.ambiguous.length);
    for (const issue of procedureListIssues(lists)) {
      if (issue.path[0] === "procedures" && !written) {
        say(`informe ao menos um procedimento na coluna "Procedimentos obrigatórios" ou "Procedimentos opcionais"`);
      } else if (issue.path[0] === "proceduresNotMandatory") {
        const both = procedureConflicts(lists.procedures, lists.proceduresNotMandatory);
        const names = mandatory.items.filter((item) => both.includes(item.id)).map((item) => item.name);
        const subject = names.length === 1 ? `${quoted(names)} está` : `${quoted(names)} estão`;
        say(`${subject} nas duas colunas de procedimentos; ${lowerFirst(T.procedureConflict)}`);
      }
    }

    if (rowErrors.length) {
      errors.push(...rowErrors);
      continue;
    }
    checked.push({
      line,
      name,
      andar,
      categoriaId: categoriaId!,
      setorId: setorId!,
      riscos: risks.items.map((item) => item.id),
      ...lists,
    });
  }

  if (errors.length) return { errors: capErrors(errors), total: errors.length };
  return { rows: checked };
}
