import { csvHeader, type CatalogueKind } from "../../api/domain/catalogues";

import { requireCatalogue, type CatalogueArgs } from "./catalogue.server";

const EXAMPLES: Record<CatalogueKind, string[][]> = {
  setores: [["Recepção"], ["Centro Cirúrgico"]],
  riscos: [
    ["Biológico", "#c62828"],
    ["Químico", "#f9a825"],
  ],
  procedimentos: [["Limpar piso"], ["Recolher lixo"]],
  categorias: [["Banheiro"], ["Sala"]],
};

/**
 * A 'Baixar Modelo' download: the header the import checks and sample rows. Semicolons, CRLF and a UTF-8 BOM, so
 * Excel in pt-BR opens it in columns with the accents right. Shared by the catalogues and the CPFs.
 */
export function csvTemplateResponse(fileName: string, rows: readonly (readonly string[])[]) {
  const lines = rows.map((cells) => cells.join(";"));
  return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
    },
  });
}

/** 'Baixar Modelo': the CSV template of one catalogue, built from the same header the import checks. */
export async function catalogueTemplateLoader(args: CatalogueArgs, kind: CatalogueKind) {
  await requireCatalogue(args, kind);
  return csvTemplateResponse(`modelo-${kind}.csv`, [csvHeader(kind), ...EXAMPLES[kind]]);
}
