import type { LoaderFunctionArgs } from "@remix-run/node";

import { callApi } from "~/api.server";
import { apiListQuery, readListParams } from "~/lib/list-params";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";

import { CataloguePage, failLoad, requireCatalogue, type CatalogueItem } from "./catalogue.server";

/** 'Exportar Excel': the page the list shows (same search, order, page and size), as listagem-{kind}-DD-MM-YYYY.xlsx. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  const params = readListParams(request.url, "nome");
  const result = await callApi(context, request, catalogue.definition.apiPath, {
    token: catalogue.auth.token,
    query: { ...catalogue.scopeQuery, ...apiListQuery(params) },
    schema: CataloguePage,
  });
  if (!result.ok) return failLoad(request, context, result, catalogue.texts.loadFailed);
  const columns: SheetColumn<CatalogueItem>[] = [
    { header: "Empresa", width: 32, value: (item) => item.empresa },
    { header: catalogue.definition.title, width: 40, value: (item) => item.name },
  ];
  if (catalogue.definition.hasColor) {
    columns.push({ header: "Cor", width: 12, value: (item) => item.color ?? "", fill: (item) => item.color ?? null });
  }
  return xlsxResponse(
    `listagem-${catalogue.kind}-${fileDate()}.xlsx`,
    catalogue.definition.titlePlural,
    columns,
    result.data.items,
  );
}
