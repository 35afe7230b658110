/**
 * The four catalogues (sectors, risks, procedures, categories) share one shape and one implementation; this table
 * holds everything that differs between them: tables, contract paths, CSV field names and the Portuguese texts
 * of spec 000 §2, §5 and §8.
 */
export type CatalogueKind = "setores" | "riscos" | "procedimentos" | "categorias";
export const CATALOGUE_KINDS: CatalogueKind[] = ["setores", "riscos", "procedimentos", "categorias"];

export type CatalogueDefinition = {
  kind: CatalogueKind;
  table: "sectors" | "risks" | "procedures" | "categories";
  /** The contract path of spec 000 §7 (GET, POST, PUT /{id}, DELETE). */
  apiPath: string;
  csvPath: string;
  csvField: string;
  hasColor: boolean;
  /** DELETE takes the item as body, except procedures (DELETE /procedures/{id}). */
  deleteById: boolean;
  feminine: boolean;
  singular: string;
  plural: string;
  title: string;
  titlePlural: string;
};

const definition = (d: CatalogueDefinition) => d;

export const CATALOGUES: Record<CatalogueKind, CatalogueDefinition> = {
  setores: definition({
    kind: "setores",
    table: "sectors",
    apiPath: "/setor",
    csvPath: "/cadastroViaCSV/setor",
    csvField: "csvSetores",
    hasColor: false,
    deleteById: false,
    feminine: false,
    singular: "setor",
    plural: "setores",
    title: "Setor",
    titlePlural: "Setores",
  }),
  riscos: definition({
    kind: "riscos",
    table: "risks",
    apiPath: "/risco",
    csvPath: "/cadastroViaCSV/risco",
    csvField: "csvRiscos",
    hasColor: true,
    deleteById: false,
    feminine: false,
    singular: "risco",
    plural: "riscos",
    title: "Risco",
    titlePlural: "Riscos",
  }),
  procedimentos: definition({
    kind: "procedimentos",
    table: "procedures",
    apiPath: "/procedures",
    csvPath: "/cadastroViaCSV/procedures",
    csvField: "csvProcedures",
    hasColor: false,
    deleteById: true,
    feminine: false,
    singular: "procedimento",
    plural: "procedimentos",
    title: "Procedimento",
    titlePlural: "Procedimentos",
  }),
  categorias: definition({
    kind: "categorias",
    table: "categories",
    apiPath: "/categorias",
    csvPath: "/cadastroViaCSV/categorias",
    csvField: "csvCategorias",
    hasColor: false,
    deleteById: false,
    feminine: true,
    singular: "categoria",
    plural: "categorias",
    title: "Categoria",
    titlePlural: "Categorias",
  }),
};

export function isCatalogueKind(value: string): value is CatalogueKind {
  return (CATALOGUE_KINDS as string[]).includes(value);
}

/** The spec's texts for one catalogue, with its gender ('cadastrado' / 'cadastrada'). */
export function catalogueTexts(kind: CatalogueKind) {
  const c = CATALOGUES[kind];
  const o = c.feminine ? "a" : "o";
  const article = c.feminine ? "as" : "os";
  const an = c.feminine ? "uma" : "um";
  return {
    listTab: `Listar ${c.plural}`,
    registerTab: `Cadastrar ${c.singular}`,
    nameLabel: `Nome d${o} ${c.singular}`,
    empty: `Não existem ${c.plural} cadastrad${o}s ainda.`,
    nameRequired: `Nome d${o} ${c.singular} é obrigatório`,
    colorRequired: "Escolha a cor do risco",
    duplicateTitle: `${c.title} duplicad${o}`,
    duplicateDescription: `Já existe ${an} ${c.singular} cadastrad${o} com o mesmo nome e empresa`,
    notFound: `${c.title} não encontrad${o}`,
    created: `${c.title} cadastrad${o} com sucesso`,
    edited: `${c.title} editad${o} com sucesso`,
    deleted: `${c.title} deletad${o} com sucesso`,
    duplicated: `${c.titlePlural} duplicad${o}s com sucesso`,
    batchCreated: `${c.titlePlural} cadastrad${o}s com sucesso`,
    createFailed: `Erro ao cadastrar ${c.singular}`,
    editFailed: `Erro ao editar ${c.singular}`,
    deleteFailed: `Erro ao deletar ${c.singular}`,
    duplicateFailed: `Erro ao duplicar ${article} ${c.plural}`,
    batchFailed: `Erro ao cadastrar lista de ${c.plural}!`,
    loadFailed: `Erro ao carregar ${article} ${c.plural}, por favor atualize a página`,
    duplicateDialog: `Duplicar ${c.titlePlural}`,
    duplicateButton: `Duplicar ${c.plural}`,
    helpEditor: `Nesta página você pode visualizar, cadastrar e editar ${article} ${c.plural} da empresa e de suas filiais.`,
    helpViewer: `Nesta página você pode visualizar ${article} ${c.plural} da sua filial.`,
  };
}

// Every CSV import's (csv-import.ts); re-exported for the catalogue screens.
export { CSV_INVALID, isCsvFile } from "./csv-import.ts";
export const ALREADY_PRESENT = "Os itens já estão presentes na filial.";
export const INVALID_LIST = "Lista inválida";

/** The CSV template's header per catalogue; the import checks the file's header against it. */
export function csvHeader(kind: CatalogueKind) {
  return CATALOGUES[kind].hasColor ? ["nome", "cor"] : ["nome"];
}

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** The table of one catalogue; the four share their columns (risks add a colour). */
export type CatalogueTable = CatalogueDefinition["table"];

/**
 * A catalogue item's name as stored and compared: trimmed, inner white space collapsed to one space. Anything that
 * is not text becomes '' (so a form or JSON field of the wrong type reads as empty, and the 'required' rule answers).
 */
export function normaliseCatalogueName(value: unknown): string {
  return typeof value === "string" ? value.trim().replace(/\s+/g, " ") : "";
}
