import type { z } from "zod";

import type { CatalogueKind } from "../../api/domain/catalogues";

import { readListParams } from "~/lib/list-params";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import { catalogueExportRows, type CatalogueItem } from "~/models/catalogues.server";

import { requireCatalogue, type CatalogueArgs } from "./catalogue.server";
import { DEFAULT_SORT } from "./sort";

/**
 * 'Exportar Excel': the page the list shows (same search, order, page and size) as listagem-{kind}-DD-MM-YYYY.xlsx,
 * streamed: rows are fetched from the API while the file is written.
 */
export async function catalogueExportLoader(args: CatalogueArgs, kind: CatalogueKind) {
  const catalogue = await requireCatalogue(args, kind);
  const params = readListParams(args.request.url, DEFAULT_SORT);
  const columns: SheetColumn<z.infer<typeof CatalogueItem>>[] = [
    { header: "Empresa", width: 32, value: (item) => item.empresa },
    { header: catalogue.definition.title, width: 40, value: (item) => item.name },
  ];
  if (catalogue.definition.hasColor) {
    columns.push({ header: "Cor", width: 12, value: (item) => item.color ?? "", fill: (item) => item.color ?? null });
  }
  return xlsxResponse(
    `listagem-${kind}-${fileDate()}.xlsx`,
    catalogue.definition.titlePlural,
    columns,
    catalogueExportRows(catalogue.api, kind, params),
    // A failure after the download began can only abort it: say why in the log.
    { onError: (error) => console.error(error) },
  );
}
