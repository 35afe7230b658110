import { createReadableStreamFromReadable, redirect } from "@remix-run/node";

import { ENVIRONMENT_TEXTS as T, INT32_MAX, joinNames, splitProcedures } from "../../api/domain/environments";

import { downloadHeaders } from "~/lib/downloads.server";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { publicUrlOf } from "~/lib/public-url.server";
import {
  qrBulkPdfFileName,
  qrContent,
  qrImage,
  qrImageFileName,
  qrPdf,
  qrPdfFileName,
  QR_IMAGE_FORMATS,
  type QrImageFormat,
} from "~/lib/qr-codes.server";
import { fileDate, xlsxResponse, type SheetColumn } from "~/lib/xlsx.server";
import {
  environmentExportRows,
  environmentsInOrder,
  getEnvironment,
  type EnvironmentItem,
} from "~/models/environments.server";
import { safeRedirectTo } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { environmentIdOf, requireEnvironments, type EnvironmentArgs } from "./environment.server";
import { readEnvironmentListParams } from "./params";

const logDownloadError = (error: unknown) => console.error(error);

/**
 * /ambientes/:id/qrcode/:formato: one environment's QR code as 'QRCODE-{ID}.pdf' (the A4 sheet) or
 * 'QRCODE-{ID}.png' / '.jpeg' / '.svg'. Any signed-in user of the page may download the codes of the environments
 * they can see (read-only screens keep the QR functions, spec 000 §6); another tenant's id is 404.
 */
export async function environmentQrDownloadLoader(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const id = environmentIdOf(args.params);
  const format = args.params.formato ?? "";
  invariantResponse(format === "pdf" || QR_IMAGE_FORMATS.includes(format as QrImageFormat), "Formato desconhecido", {
    status: 404,
  });
  const found = await getEnvironment(api, id);
  if (!found.ok) return failLoad(api, found, T.loadFailed);
  const environment = found.data;
  const publicUrl = publicUrlOf(args.context, args.request);
  if (format === "pdf") {
    const sheet = { id: environment.id, name: environment.name, qrCodigo: environment.qrCodigo };
    const pdf = await qrPdf([sheet], publicUrl, { onError: logDownloadError });
    return new Response(createReadableStreamFromReadable(pdf), {
      headers: downloadHeaders("application/pdf", qrPdfFileName(environment.id)),
    });
  }
  const image = await qrImage(qrContent(environment, publicUrl), format as QrImageFormat);
  const body = typeof image.body === "string" ? image.body : new Uint8Array(image.body);
  return new Response(body, {
    headers: downloadHeaders(image.contentType, qrImageFileName(environment.id, format as QrImageFormat)),
  });
}

/** The ids the form ticked, in the order the list showed them, each once; at most the API's 5,000. */
function tickedIds(values: FormDataEntryValue[]) {
  const ids: number[] = [];
  for (const value of values) {
    if (typeof value !== "string" || !/^\d{1,10}$/.test(value)) continue;
    const id = Number(value);
    if (id >= 1 && id <= INT32_MAX && !ids.includes(id)) ids.push(id);
    if (ids.length === 5000) break;
  }
  return ids;
}

const NOTHING_TICKED = {
  type: "info",
  title: "Nenhum registro selecionado",
  description: "Favor selecionar pelo menos um registro",
} as const;

/**
 * POST /ambientes/qrcodes.pdf: the ticked rows' sheets in one PDF, 'QRCODES-YYYYMMDD-HHmm.pdf' (spec 000 §2, §9). The
 * list's tick boxes belong to this form, so it works without JS; a POST, because 'Todos' can tick thousands of rows
 * (too many for a URL). The environments are fetched 500 at a time while the PDF is written. Nothing ticked (or
 * nothing of the user's) goes back to the list with the spec's 'Nenhum registro selecionado'.
 */
export async function environmentQrBulkAction(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const form = await args.request.formData();
  const back = safeRedirectTo(form.get("redirectTo"), "/ambientes");
  const ids = tickedIds(form.getAll("ids"));
  if (!ids.length) return redirectWithToast(args.context, back, NOTHING_TICKED);
  const sheets = (async function* () {
    for await (const item of environmentsInOrder(api, ids))
      yield { id: item.ID, name: item.AMBIENTE_NOME, qrCodigo: item.qrCodigo };
  })();
  let pdf;
  try {
    pdf = await qrPdf(sheets, publicUrlOf(args.context, args.request), { onError: logDownloadError });
  } catch (error) {
    if (error instanceof RangeError) return redirectWithToast(args.context, back, NOTHING_TICKED);
    throw error;
  }
  return new Response(createReadableStreamFromReadable(pdf), {
    headers: downloadHeaders("application/pdf", qrBulkPdfFileName()),
  });
}

/** A GET of the bulk export's URL (a bookmark, a reload after the download): back to the list. */
export async function environmentQrBulkLoader(args: EnvironmentArgs) {
  await requireEnvironments(args);
  return redirect("/ambientes");
}

const SHEET_COLUMNS: SheetColumn<EnvironmentItem>[] = [
  { header: "Empresa", width: 28, value: (item) => item.EMPRESA },
  { header: "Ambiente", width: 36, value: (item) => item.AMBIENTE_NOME },
  { header: "Categoria", width: 20, value: (item) => item.CATEGORIA },
  { header: "Setor", width: 20, value: (item) => item.SETOR },
  { header: "Andar", width: 14, value: (item) => item.ANDAR },
  { header: "Riscos", width: 36, value: (item) => joinNames(item.RISCOS) },
  {
    header: "Procedimentos Obrigatórios",
    width: 48,
    value: (item) => joinNames(splitProcedures(item.PROCEDIMENTOS).mandatory),
  },
  {
    header: "Procedimentos Opcionais",
    width: 48,
    value: (item) => joinNames(splitProcedures(item.PROCEDIMENTOS).optional),
  },
];

/**
 * 'Exportar Excel': the page the list shows (same search, 'Filtrar por' fields, order, page and size, as the
 * catalogues' export) as listagem-ambientes-DD-MM-YYYY.xlsx, one row per environment with the list's data columns;
 * streamed (rows are fetched from the API while the file is written).
 */
export async function environmentExportLoader(args: EnvironmentArgs) {
  const { api } = await requireEnvironments(args);
  const { params, fields } = readEnvironmentListParams(args.request.url);
  return xlsxResponse(
    `listagem-ambientes-${fileDate()}.xlsx`,
    "Ambientes",
    SHEET_COLUMNS,
    environmentExportRows(api, { params, fields }),
    { onError: logDownloadError },
  );
}
