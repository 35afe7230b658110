import { data } from "@remix-run/node";

import {
  ENVIRONMENT_SEARCH_FIELDS,
  ENVIRONMENT_TEXTS as T,
  joinNames,
  splitProcedures,
} from "../../api/domain/environments";

import { failLoad } from "~/lib/fail-load.server";
import { listEnvironmentPage, type EnvironmentItem } from "~/models/environments.server";
import { signOutOnUnauthorized } from "~/session.server";

import { requireEnvironments, type EnvironmentArgs } from "./environment.server";
import { readEnvironmentListParams } from "./params";

/** A row as the list draws it: names only, lists already joined by comma (spec 000 §9). */
export type EnvironmentRow = {
  id: number;
  name: string;
  empresa: string;
  categoria: string;
  setor: string;
  andar: string;
  riscos: string;
  obrigatorios: string;
  opcionais: string;
};

export function environmentRow(item: EnvironmentItem): EnvironmentRow {
  const procedures = splitProcedures(item.PROCEDIMENTOS);
  return {
    id: item.ID,
    name: item.AMBIENTE_NOME,
    empresa: item.EMPRESA,
    categoria: item.CATEGORIA,
    setor: item.SETOR,
    andar: item.ANDAR,
    riscos: joinNames(item.RISCOS),
    obrigatorios: joinNames(procedures.mandatory),
    opcionais: joinNames(procedures.optional),
  };
}

/**
 * The list's texts and filter choices travel as data: the component importing the domain module would put zod/mini
 * (its field rules) in the list page's bundle and split the form pages' shared chunks (docs/performance.md 'JS budget').
 */
const LIST_TEXTS = {
  listTab: T.listTab,
  empty: T.empty,
  filterTitle: T.filterTitle,
  searchFields: ENVIRONMENT_SEARCH_FIELDS.map(({ key, label }) => ({ key, label })),
};

/**
 * The list tab: one page as the URL's search, 'Filtrar por' fields, order, page and size ask. A failed load shows the
 * spec's 'Erro ao carregar os ambientes, por favor atualize a página.' in place of the list (500), with the search
 * form still there.
 */
export async function environmentListLoader(args: EnvironmentArgs) {
  const { api, canEdit } = await requireEnvironments(args);
  const url = new URL(args.request.url);
  const { params, campos, fields } = readEnvironmentListParams(url);
  const tickAll = url.searchParams.get("marcar") === "todos";
  const result = await listEnvironmentPage(api, { params, fields });
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    if (result.status === 404) return failLoad(api, result, T.loadFailed);
    return data(
      {
        texts: LIST_TEXTS,
        canEdit,
        params,
        campos,
        tickAll,
        rows: [] as EnvironmentRow[],
        total: 0,
        loadError: T.loadFailed as string | null,
      },
      { status: 500 },
    );
  }
  const rows = result.data.items.map(environmentRow);
  return {
    texts: LIST_TEXTS,
    canEdit,
    params,
    campos,
    tickAll,
    rows,
    total: result.data.total,
    loadError: null as string | null,
  };
}
