import {
  environmentSortOf,
  formatSearchFields,
  parseSearchFields,
  type EnvironmentSearchField,
} from "../../api/domain/environments";

import { readListParams, type ListParams } from "~/lib/list-params";

import { DEFAULT_SORT } from "./sort";

/**
 * The list's URL state (server side): the shared ?q=&ordem=&dir=&pagina=&tamanho= and the 'Filtrar por' fields as
 * repeated ?campos= values, as the filter's tick boxes submit them. The default (Ambiente only) is left out of links.
 */
export type EnvironmentListState = {
  params: ListParams;
  /** The fields the search matches, in the filter's order. */
  campos: EnvironmentSearchField[];
  /** The API's `fields` value ('' for the default). */
  fields: string;
};

export function readEnvironmentListParams(url: URL | string): EnvironmentListState {
  const parsed = new URL(url, "http://x");
  const read = readListParams(parsed, DEFAULT_SORT);
  // Only the columns that sort: anything else is the default (the API would refuse an over-long key with a 400).
  const base = { ...read, ordem: environmentSortOf(read.ordem) };
  const campos = parseSearchFields(parsed.searchParams.getAll("campos"));
  const fields = formatSearchFields(campos);
  const extra: [string, string][] = fields ? campos.map((campo) => ["campos", campo]) : [];
  return { params: { ...base, extra }, campos, fields };
}
