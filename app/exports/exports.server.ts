import type { LoaderFunctionArgs } from "@remix-run/node";

import { formatBytes } from "../../api/lib/body-limit";
import { EXPORT_TEXTS } from "../../api/services/export-jobs";

import { businessDateMinute } from "~/lib/business-time.server";
import { downloadResponse } from "~/lib/export-jobs.server";
import { failLoad } from "~/lib/fail-load.server";
import { idParam } from "~/lib/list-params";
import { PAGES, type PagePath } from "~/lib/navigation";
import { getExport, listExports, type ExportJobState } from "~/models/exports.server";
import { requirePage, requireUser } from "~/session.server";

/** The export jobs' pages (docs/exports.md): the progress of one, the requester's latest, a finished file. */

const EXPORT_PAGE_TEXTS = {
  loadFailed: "Não foi possível carregar a exportação.",
  notFound: EXPORT_TEXTS.notFound,
};

/** What the file is, from its address: the report's title (the longest page path it starts with) and its format. */
export function exportTitle(caminho: string) {
  const path = caminho.split("?", 1)[0];
  const page = (Object.keys(PAGES) as PagePath[])
    .filter((key) => path.startsWith(`${key}/`))
    .sort((a, b) => b.length - a.length)[0];
  const format = path.endsWith(".pdf") ? "PDF" : "Excel";
  return `${page ? PAGES[page].title : "Relatório"} · ${format}`;
}

const STATUS_LABELS: Record<ExportJobState["status"], string> = {
  na_fila: "Na fila",
  gerando: "Gerando",
  pronta: "Pronta",
  falhou: "Não gerada",
};

function jobView(
  job: Pick<ExportJobState, "id" | "caminho" | "status" | "bytes" | "nomeArquivo" | "criadaEm" | "expiraEm">,
) {
  return {
    id: job.id,
    title: exportTitle(job.caminho),
    status: job.status,
    statusLabel: STATUS_LABELS[job.status],
    size: formatBytes(job.bytes),
    fileName: job.nomeArquivo,
    requestedAt: businessDateMinute(job.criadaEm),
    keptUntil: job.expiraEm ? businessDateMinute(job.expiraEm) : null,
    fileUrl: `/exportacoes/${job.id}/arquivo`,
  };
}

/** /exportacoes/:id: the job's state, its place in the queue and how long it has waited; its file once ready. */
export async function exportProgressLoader({ request, context, params }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, "/exportacoes");
  const api = { context, request, auth };
  const result = await getExport(api, idParam(params.id, EXPORT_PAGE_TEXTS.notFound));
  if (!result.ok) return failLoad(api, result, EXPORT_PAGE_TEXTS.loadFailed);
  const job = result.data;
  const waitedS = Math.max(
    0,
    Math.round(((job.iniciadaEm ? Date.parse(job.iniciadaEm) : Date.now()) - Date.parse(job.criadaEm)) / 1000),
  );
  return {
    job: {
      ...jobView(job),
      ahead: job.posicao,
      waitedS,
      message: job.mensagem,
      back: job.voltar,
    },
  };
}

/** /exportacoes: the requester's latest exports (20), newest first, each with its state and its file while kept. */
export async function exportListLoader({ request, context }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, "/exportacoes");
  const api = { context, request, auth };
  const result = await listExports(api);
  if (!result.ok) return failLoad(api, result, EXPORT_PAGE_TEXTS.loadFailed);
  return { jobs: result.data.items.map(jobView) };
}

/** /exportacoes/:id/arquivo: the finished file, for its requester only (anyone else, or an expired file: 404). */
export async function exportFileLoader({ request, context, params }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  const file = await downloadResponse({ context, request, auth }, idParam(params.id, EXPORT_PAGE_TEXTS.notFound));
  if (file) return file;
  return new Response(EXPORT_PAGE_TEXTS.notFound, {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
