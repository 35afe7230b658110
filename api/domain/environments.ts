import * as z from "zod/mini";

import { normaliseCatalogueName } from "./catalogues.ts";
import { id, idField, INT32_MAX, preprocess, toNumber } from "./fields.ts";

export { idField, INT32_MAX };

/**
 * Environments (ambientes, spec 000 §2 'Environments', §4, §5, §8): the Portuguese texts, the list's search fields
 * and sortable columns, the procedure-selection rules of the register and edit forms, and the field rules shared by
 * the web form and the API. Pure and browser-safe (zod/mini only, as api/domain/fields.ts).
 */
export const ENVIRONMENT_TEXTS = {
  listTab: "Listar ambientes",
  registerTab: "Cadastrar ambiente",
  editTitle: "Editar ambiente",
  empty: "Não existem ambientes cadastrados ainda.",
  helpEditor: "Nesta página você pode visualizar, cadastrar e editar os ambientes da empresa e de suas filiais.",
  helpViewer: "Nesta página você pode visualizar os ambientes da sua filial.",
  filterTitle: "Filtrar por",
  markAll: "Marcar Todos",
  unmarkAll: "Desmarcar Todos",
  confirmRemove: "Tem certeza que deseja remover?",
  // §5 'Environments'
  nameRequired: "Nome do ambiente é obrigatório",
  andarRequired: "Nome do andar é obrigatório",
  risksRequired: "Favor selecionar o(s) risco(s) do ambiente",
  proceduresRequired: "Favor selecionar o(s) procedimento(s) do ambiente",
  blankTitle: "Campos em branco",
  blankDescription: "Existem campos obrigatórios não preenchidos.",
  duplicateTitle: "Ambiente duplicado",
  duplicateDescription: "Já existe um ambiente cadastrado com o mesmo nome e empresa",
  // §8 'Catalogues and environments'
  loadFailed: "Erro ao carregar os ambientes, por favor atualize a página.",
  missingCataloguesTitle: "Cadastros não realizados",
  missingCataloguesDescription:
    "Favor cadastrar ao menos um procedimento, risco, setor e categoria antes de cadastrar um ambiente",
  created: "Ambiente cadastrado com sucesso",
  edited: "Ambiente editado com sucesso",
  deleted: "Ambiente deletado com sucesso",
  createFailed: "Erro ao cadastrar o ambiente",
  createUnexpected: "Erro ao cadastrar o dados",
  editFailed: "Erro ao editar ambiente",
  editUnexpected: "Erro ao editar o dados",
  deleteFailed: "Erro ao deletar ambiente",
  hasHistory: "Ambiente já possui historico e não pode ser deletado",
  // Ours, where the spec has no text (docs/environments.md).
  categoryRequired: "Favor selecionar a categoria do ambiente",
  sectorRequired: "Favor selecionar o setor do ambiente",
  procedureConflict: "Um procedimento não pode ser obrigatório e opcional ao mesmo tempo",
  notFound: "Ambiente não encontrado",
  categoryNotFound: "Categoria não encontrada na empresa do ambiente",
  sectorNotFound: "Setor não encontrado na empresa do ambiente",
  riskNotFound: "Risco não encontrado na empresa do ambiente",
  procedureNotFound: "Procedimento não encontrado na empresa do ambiente",
} as const;

/** The 'Filtrar por' choices (spec 000 §2): which fields the text search matches. Ambiente is on by default. */
export const ENVIRONMENT_SEARCH_FIELDS = [
  { key: "empresa", label: "Empresa" },
  { key: "ambiente", label: "Ambiente" },
  { key: "categoria", label: "Categoria" },
  { key: "setor", label: "Setor" },
  { key: "andar", label: "Andar" },
  { key: "risco", label: "Risco" },
  { key: "procedimento", label: "Procedimento" },
] as const;
export type EnvironmentSearchField = (typeof ENVIRONMENT_SEARCH_FIELDS)[number]["key"];
export const DEFAULT_SEARCH_FIELDS: readonly EnvironmentSearchField[] = ["ambiente"];

const SEARCH_KEYS: readonly string[] = ENVIRONMENT_SEARCH_FIELDS.map((field) => field.key);
const isSearchField = (value: string): value is EnvironmentSearchField => SEARCH_KEYS.includes(value);

/**
 * The search fields of a query (`fields=ambiente,setor` from the API, or the form's repeated `campos` values): known
 * keys only, each once, in the modal's order; none at all means the default (Ambiente).
 */
export function parseSearchFields(value: string | readonly string[] | null | undefined): EnvironmentSearchField[] {
  const raw = typeof value === "string" ? [value] : (value ?? []);
  const chosen = new Set(
    raw
      .flatMap((entry) => entry.split(","))
      .map((entry) => entry.trim().toLowerCase())
      .filter(isSearchField),
  );
  const fields = ENVIRONMENT_SEARCH_FIELDS.map((field) => field.key).filter((key) => chosen.has(key));
  return fields.length ? fields : [...DEFAULT_SEARCH_FIELDS];
}

/** The API's `fields` value for a choice ('' when it is the default, so URLs stay short). */
export function formatSearchFields(fields: readonly string[]): string {
  const parsed = parseSearchFields(fields);
  const isDefault =
    parsed.length === DEFAULT_SEARCH_FIELDS.length && parsed.every((f) => DEFAULT_SEARCH_FIELDS.includes(f));
  return isDefault ? "" : parsed.join(",");
}

/**
 * The list's columns that sort (spec 000 §2, §9: ascending or descending, locale-aware; list values compared as
 * their comma-joined text). The key is the API's `sort` value; Ambiente is the default.
 */
export const ENVIRONMENT_SORTS = [
  { key: "empresa", label: "Empresa" },
  { key: "ambiente", label: "Ambiente" },
  { key: "categoria", label: "Categoria" },
  { key: "setor", label: "Setor" },
  { key: "andar", label: "Andar" },
  { key: "riscos", label: "Riscos" },
  { key: "obrigatorios", label: "Procedimentos Obrigatórios" },
  { key: "opcionais", label: "Procedimentos Opcionais" },
] as const;
export type EnvironmentSort = (typeof ENVIRONMENT_SORTS)[number]["key"];
export const DEFAULT_ENVIRONMENT_SORT: EnvironmentSort = "ambiente";

/** A known sort key, or the default (an unknown one, as the catalogues do, sorts by name). */
export function environmentSortOf(value: string | null | undefined): EnvironmentSort {
  return ENVIRONMENT_SORTS.find((sort) => sort.key === value)?.key ?? DEFAULT_ENVIRONMENT_SORT;
}

// ---------------------------------------------------------------------------------------------------------------
// Procedure selection (spec 000 §4 'Environment procedures')

/** The two procedure lists of the form, as ids. A procedure is in at most one of them. */
export type ProcedureSelection = { mandatory: number[]; optional: number[] };
export type ProcedureList = keyof ProcedureSelection;

const other = (list: ProcedureList): ProcedureList => (list === "mandatory" ? "optional" : "mandatory");
const unique = (ids: readonly number[]) => [...new Set(ids)];

/** Ticks (or unticks) one procedure in one list; ticking it removes it from the other list. */
export function pickProcedure(
  selection: ProcedureSelection,
  list: ProcedureList,
  id: number,
  picked = true,
): ProcedureSelection {
  if (!picked) return { ...selection, [list]: selection[list].filter((item) => item !== id) } as ProcedureSelection;
  return {
    [list]: selection[list].includes(id) ? selection[list] : [...selection[list], id],
    [other(list)]: selection[other(list)].filter((item) => item !== id),
  } as ProcedureSelection;
}

/** A multi-select's new value for one list: those ids there (each once), and none of them in the other list. */
export function setProcedures(
  selection: ProcedureSelection,
  list: ProcedureList,
  ids: readonly number[],
): ProcedureSelection {
  const chosen = unique(ids);
  return {
    [list]: chosen,
    [other(list)]: selection[other(list)].filter((item) => !chosen.includes(item)),
  } as ProcedureSelection;
}

/**
 * 'Marcar todos' on the optional procedures: every procedure of the company optional and none mandatory; unticked,
 * the optional list is emptied (the mandatory one stays empty).
 */
export function markAllOptional(
  selection: ProcedureSelection,
  allIds: readonly number[],
  mark = true,
): ProcedureSelection {
  return mark ? { mandatory: [], optional: unique(allIds) } : { mandatory: selection.mandatory, optional: [] };
}

/** Whether 'Marcar todos' shows ticked: the company has procedures and every one of them is optional. */
export function isAllOptional(selection: ProcedureSelection, allIds: readonly number[]) {
  return allIds.length > 0 && allIds.every((id) => selection.optional.includes(id));
}

/** The ids that are in both lists (the API refuses a save with any). */
export function procedureConflicts(mandatory: readonly number[], optional: readonly number[]): number[] {
  const optionalSet = new Set(optional);
  return unique(mandatory.filter((id) => optionalSet.has(id)));
}

/**
 * What the form holds after the company changes (spec 000 §4): category and sector default to the first of that
 * company's, risks and both procedure lists are cleared.
 */
export function defaultsForCompany(options: { categoryIds: readonly number[]; sectorIds: readonly number[] }) {
  return {
    categoriaId: options.categoryIds[0] ?? null,
    setorId: options.sectorIds[0] ?? null,
    riscos: [] as number[],
    procedures: [] as number[],
    proceduresNotMandatory: [] as number[],
  };
}

/** 'Cadastros não realizados' (spec 000 §8): the company has no categories or no sectors to offer. */
export function lacksCatalogues(options: { categories: number; sectors: number }) {
  return options.categories === 0 || options.sectors === 0;
}

/**
 * An environment's procedures as the list shows them (spec 000 §3: 'duplicate procedure names collapsed'): one entry
 * per name (compared without case, accents or extra spaces), in first-seen order, mandatory when any entry of that
 * name is mandatory.
 */
export function collapseProcedures<T extends { name: string; mandatory: boolean }>(items: readonly T[]): T[] {
  const byName = new Map<string, T>();
  for (const item of items) {
    const key = foldName(item.name);
    const seen = byName.get(key);
    if (!seen) byName.set(key, item);
    else if (item.mandatory && !seen.mandatory) byName.set(key, { ...seen, mandatory: true });
  }
  return [...byName.values()];
}

/** The 'Procedimentos Obrigatórios' and 'Procedimentos Opcionais' columns' names (collapsed first). */
export function splitProcedures(items: readonly { name: string; mandatory: boolean }[]) {
  const collapsed = collapseProcedures(items);
  return {
    mandatory: collapsed.filter((item) => item.mandatory).map((item) => item.name),
    optional: collapsed.filter((item) => !item.mandatory).map((item) => item.name),
  };
}

/** List values are shown joined by comma (spec 000 §9). */
export function joinNames(names: readonly string[]) {
  return names.join(", ");
}

function foldName(name: string) {
  return normaliseCatalogueName(name)
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");
}

// ---------------------------------------------------------------------------------------------------------------
// Field rules (spec 000 §5 'Environments'), for the web form and the API's request bodies

export const ENVIRONMENT_NAME_MAX = 120;
export const ENVIRONMENT_ANDAR_MAX = 60;
const tooLong = (max: number) => `Grande demais: esperava que o texto tivesse <= ${max} caracteres`;

function toIdList(value: unknown) {
  if (value === undefined || value === null || value === "") return [];
  return (Array.isArray(value) ? value : [value]).filter((entry) => entry !== "").map(toNumber);
}

/** The ids chosen in a multi-select; `required` makes an empty choice fail with that message. */
export const idListField = (required?: string) =>
  preprocess(
    toIdList,
    z.array(id()).check(z.maxLength(5000, "Seleção grande demais"), ...(required ? [z.minLength(1, required)] : [])),
  );

const textField = (required: string, max: number) =>
  preprocess(normaliseCatalogueName, z.string().check(z.minLength(1, required), z.maxLength(max, tooLong(max))));

/** The fields of the register and edit forms (the edit form has no company), with the spec's messages. */
export const environmentFields = {
  name: textField(ENVIRONMENT_TEXTS.nameRequired, ENVIRONMENT_NAME_MAX),
  andar: textField(ENVIRONMENT_TEXTS.andarRequired, ENVIRONMENT_ANDAR_MAX),
  categoriaId: idField(ENVIRONMENT_TEXTS.categoryRequired),
  setorId: idField(ENVIRONMENT_TEXTS.sectorRequired),
  riscos: idListField(ENVIRONMENT_TEXTS.risksRequired),
  procedures: idListField(),
  proceduresNotMandatory: idListField(),
};

type ProcedureLists = { procedures: number[]; proceduresNotMandatory: number[] };

/**
 * The rules across the two procedure lists, as a refinement of a form or body schema: at least one procedure in
 * either list ('Favor selecionar o(s) procedimento(s) do ambiente', on `procedures`), and none in both (on
 * `proceduresNotMandatory`).
 */
export function checkProcedureLists<T extends ProcedureLists>(value: T, context: z.core.$RefinementCtx<T>) {
  for (const issue of procedureListIssues(value)) context.addIssue({ code: "custom", ...issue, input: value });
}

/** The same rules as plain data: [{ path, message }] (the API's service checks them for every caller). */
export function procedureListIssues(value: ProcedureLists): { path: [keyof ProcedureLists]; message: string }[] {
  if (!value.procedures.length && !value.proceduresNotMandatory.length)
    return [{ path: ["procedures"], message: ENVIRONMENT_TEXTS.proceduresRequired }];
  if (procedureConflicts(value.procedures, value.proceduresNotMandatory).length)
    return [{ path: ["proceduresNotMandatory"], message: ENVIRONMENT_TEXTS.procedureConflict }];
  return [];
}
