import { setTimeout as sleep } from "node:timers/promises";

import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

import { EXPORT_REFUSED_HEADER } from "../../api/services/export-jobs";

import { exportFile, getExport, queueExport, type ExportJobState } from "~/models/exports.server";
import { requireUser, signOutOnUnauthorized } from "~/session.server";
import { getToast, redirectWithToast } from "~/toast.server";

/**
 * Every Excel and PDF download is an export job (docs/exports.md): the download's URL queues it and waits a few
 * seconds; a file ready by then is the answer as before, otherwise the browser goes to the job's progress page
 * (/exportacoes/{id}), which downloads it when it is ready. The server's runner runs the same route later as the
 * requester (`context.exportJob`), and then `produce` writes the file. So one caller's exports wait their turn
 * instead of stalling everyone's pages, and a slow export never holds a request open for minutes.
 */

/** How long a download request waits for its job before it goes to the progress page (EXPORT_WAIT_MS). */
export const EXPORT_WAIT_MS = 8_000;

export const EXPORT_PAGE_TEXTS = {
  refusedTitle: "Arquivo não gerado",
  notStartedTitle: "Exportação não iniciada",
};

type Produce = (args: LoaderFunctionArgs) => Promise<Response>;

/** A download route's loader: queue and wait (a visitor's request), or make the file (the runner's). */
export function exportLoader(produce: Produce) {
  return (args: LoaderFunctionArgs) => (args.context.exportJob ? makeFile(args, produce) : queueAndWait(args));
}

const isFile = (response: Response) =>
  response.status === 200 && (response.headers.get("content-disposition") ?? "").startsWith("attachment");

/**
 * The runner's side: the file as the route makes it, or the page's refusal (a redirect with a toast: the period, a
 * PDF over its row limit …) as JSON the runner records, so the requester reads the same message later. A route that
 * throws or answers 5xx is no refusal: its error and status go to the runner, which logs them with the job's id and
 * fails the job (api/services/export-jobs.ts `ExportOutcome`); a run stopped by its signal is the runner's own doing.
 */
async function makeFile(args: LoaderFunctionArgs, produce: Produce) {
  let response: Response;
  try {
    response = await produce(args);
  } catch (thrown) {
    if (thrown instanceof Response) response = thrown;
    else if (args.request.signal.aborted) throw thrown;
    else return outcome({ message: errorText(thrown), back: null, status: 500 });
  }
  if (isFile(response)) return response;
  if (response.status >= 500) {
    const text = (await response.text()).slice(0, 500);
    return outcome({ message: text || null, back: null, status: response.status });
  }
  const location = response.headers.get("location");
  const cookie = response.headers.get("set-cookie");
  const { toast } = cookie
    ? await getToast(new Request("http://export.invalid/", { headers: { cookie: cookie.split(";")[0] } }), args.context)
    : { toast: null };
  // An error page of the route (another branch's filter, a malformed id: 404) keeps its status and its words.
  const refused =
    response.status >= 400 && response.status < 500
      ? { message: (await response.text()).slice(0, 500) || null, back: null, status: response.status }
      : { message: toast?.description ?? toast?.title ?? null, back: location, status: null };
  return outcome(refused);
}

/** What the runner reads as the run's outcome when it is no file (server.ts's `render`). */
const outcome = (value: { message: string | null; back: string | null; status: number | null }) =>
  new Response(JSON.stringify(value), {
    status: 409,
    headers: { "content-type": "application/json", [EXPORT_REFUSED_HEADER]: "1" },
  });

/** A thrown error as the log should read it: its stack (name, message and frames) when it has one. */
const errorText = (error: unknown) =>
  (error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)).slice(0, 4000);

const running = (job: ExportJobState) => job.status === "na_fila" || job.status === "gerando";

/** The requester's side: queue the job, wait a few seconds, then the file, the refusal or the progress page. */
async function queueAndWait({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  const api = { context, request, auth };
  const url = new URL(request.url);
  const queued = await queueExport(api, `${url.pathname}${url.search}`);
  if (!queued.ok) {
    await signOutOnUnauthorized(request, context, queued.status);
    throw await redirectWithToast(context, "/exportacoes", {
      type: "error",
      title: EXPORT_PAGE_TEXTS.notStartedTitle,
      description: queued.message,
    });
  }
  let job = queued.data;
  const deadline = Date.now() + (context.exportWaitMs ?? EXPORT_WAIT_MS);
  // Asks often at first (a small file is ready in a moment), then once a second.
  for (
    let pause = 100;
    running(job) && Date.now() < deadline && !request.signal.aborted;
    pause = Math.min(pause * 2, 1000)
  ) {
    await sleep(Math.min(pause, deadline - Date.now()));
    const read = await getExport(api, job.id);
    if (!read.ok) break;
    job = read.data;
  }
  return answerFor(api, job);
}

/** What the browser gets for a job: its file when ready, its refusal where it came from, else its progress page. */
export async function answerFor(api: Parameters<typeof exportFile>[0], job: ExportJobState) {
  if (job.status === "pronta") {
    const file = await downloadResponse(api, job.id);
    if (file) return file;
  }
  if (job.status === "falhou" && job.codigoHttp) {
    return new Response(job.mensagem, {
      status: job.codigoHttp,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  if (job.status === "falhou" && job.voltar) {
    return redirectWithToast(api.context, job.voltar, {
      type: "info",
      title: EXPORT_PAGE_TEXTS.refusedTitle,
      description: job.mensagem ?? undefined,
    });
  }
  return redirect(`/exportacoes/${job.id}`, 303);
}

const PASSED_ON = ["content-type", "content-disposition", "content-length", "cache-control", "x-content-type-options"];

/** A finished job's file as the download, with the report's file name; null when it is gone (expired). */
export async function downloadResponse(api: Parameters<typeof exportFile>[0], id: number) {
  const result = await exportFile(api, id);
  if (!result.ok) return null;
  const headers = new Headers();
  for (const name of PASSED_ON) {
    const value = result.response.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(result.response.body, { status: 200, headers });
}
