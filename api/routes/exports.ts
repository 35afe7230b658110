import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { isBlockedOnWeb } from "../domain/roles.ts";
import { ApiError, notFound } from "../lib/errors.ts";
import { PUBLIC_ORIGIN_HEADER, publicOrigin } from "../lib/http-guards.ts";
import { bearer, errorResponses, int32, iso, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  enqueueExport,
  EXPORT_FOLDER,
  EXPORT_TEXTS,
  listExports,
  requireExport,
  type ExportLimits,
} from "../services/export-jobs.ts";

/**
 * Long exports as jobs (docs/exports.md): the web app queues a download here and follows it; only its requester reads
 * a job or its file (anyone else, 404). The download itself is the web app's own route, run later as the requester.
 */

/** A download route of the web app: a path of lower-case words ending in .xlsx or .pdf, then its query. */
const EXPORT_PATH = /^\/[a-z0-9-]+(?:\/[a-z0-9-]+)*\.(?:xlsx|pdf)(?:\?[^#\s]*)?$/;

export const ExportJob = z
  .object({
    id: z.number(),
    caminho: z.string().openapi({ description: "The download's web address (path and query)" }),
    status: z.enum(["na_fila", "gerando", "pronta", "falhou"]),
    bytes: z.number().openapi({ description: "Bytes written so far, then the file's size" }),
    nomeArquivo: z.string().nullable(),
    posicao: z.number().openapi({ description: "Jobs ahead of this one in the queue (0 unless 'na_fila')" }),
    mensagem: z.string().nullable().openapi({ description: "Why it failed, in Portuguese" }),
    voltar: z.string().nullable().openapi({ description: "The page to go back to after a refusal" }),
    codigoHttp: z
      .number()
      .nullable()
      .openapi({ description: "A refusal that was an error page of the download (404, 403 …): its status" }),
    criadaEm: z.string(),
    iniciadaEm: z.string().nullable(),
    terminadaEm: z.string().nullable(),
    expiraEm: z.string().nullable().openapi({ description: "When the file and the job are removed" }),
  })
  .openapi("ExportJob");

/** A job in the caller's list: what the list page shows. */
export const ExportListItem = ExportJob.pick({
  id: true,
  caminho: true,
  status: true,
  bytes: true,
  nomeArquivo: true,
  criadaEm: true,
  terminadaEm: true,
  expiraEm: true,
}).openapi("ExportListItem");

type Job = Awaited<ReturnType<typeof requireExport>>;
const jobJson = (job: Job): z.infer<typeof ExportJob> => ({
  id: job.id,
  caminho: job.caminho,
  status: job.status as z.infer<typeof ExportJob>["status"],
  bytes: job.bytes,
  nomeArquivo: job.nome_arquivo,
  posicao: job.ahead,
  mensagem: job.mensagem,
  voltar: job.voltar,
  codigoHttp: job.codigo_http,
  criadaEm: job.created_at.toISOString(),
  iniciadaEm: iso(job.started_at),
  terminadaEm: iso(job.finished_at),
  expiraEm: iso(job.expires_at),
});

const idParam = z.object({ id: int32 });

export function exportRoutes(deps: ApiDeps, limits?: Pick<ExportLimits, "perUser">) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const tags = ["Exportações"];

  app.openapi(
    createRoute({
      method: "post",
      path: "/exportacoes",
      tags,
      summary: "Queue a download of the web app (an Excel or PDF export) to be made as the caller",
      security: bearer,
      request: {
        body: jsonBody(
          z.object({
            caminho: z
              .string()
              .max(4000)
              .openapi({ description: "The download's path and query, e.g. /historico-ambientes/exportar.xlsx?…" }),
          }),
        ),
      },
      responses: {
        202: jsonResponse("Queued", ExportJob),
        400: errorResponses[400],
        403: errorResponses[403],
        429: { description: "The caller already has the most jobs waiting ('Você já tem … exportações na fila')" },
      },
    }),
    async (c) => {
      const { caminho } = c.req.valid("json");
      if (!EXPORT_PATH.test(caminho)) throw new ApiError(400, "Endereço de exportação inválido.");
      const user = c.get("user");
      // Field staff have no web pages, so no downloads: their jobs could only fail, and would take the queue's room.
      if (isBlockedOnWeb(user)) throw new ApiError(403, "Permissão negada!");
      const origem =
        c.req.header(PUBLIC_ORIGIN_HEADER) ??
        publicOrigin(c.req.raw, { publicUrl: deps.config.publicUrl, trustProxy: 0 });
      const { id } = await enqueueExport(
        db,
        { companyId: c.get("scope").companyId, userId: user.id, caminho, origem },
        limits,
      );
      deps.exports?.kick();
      return c.json(jobJson(await requireExport(db, user.id, id)), 202);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/exportacoes",
      tags,
      summary: "The caller's latest exports (at most 20), newest first",
      security: bearer,
      responses: {
        200: jsonResponse("The jobs", z.object({ items: z.array(ExportListItem) })),
      },
    }),
    async (c) => {
      const rows = await listExports(db, c.get("user").id);
      return c.json(
        {
          items: rows.map((row) => ({
            id: row.id,
            caminho: row.caminho,
            status: row.status as z.infer<typeof ExportJob>["status"],
            bytes: row.bytes,
            nomeArquivo: row.nome_arquivo,
            criadaEm: row.created_at.toISOString(),
            terminadaEm: iso(row.finished_at),
            expiraEm: iso(row.expires_at),
          })),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/exportacoes/{id}",
      tags,
      summary: "One of the caller's exports: its state, its place in the queue; anyone else's is 404",
      security: bearer,
      request: { params: idParam },
      responses: { 200: jsonResponse("The job", ExportJob), 404: errorResponses[404] },
    }),
    async (c) => c.json(jobJson(await requireExport(db, c.get("user").id, c.req.valid("param").id)), 200),
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/exportacoes/{id}/arquivo",
      tags,
      summary:
        "The file of one of the caller's finished exports (404 while not ready, after it expired, or anyone else's)",
      security: bearer,
      request: { params: idParam },
      responses: {
        200: { description: "The file, as an attachment with the report's file name" },
        404: errorResponses[404],
      },
    }),
    async (c) => {
      const job = await requireExport(db, c.get("user").id, c.req.valid("param").id);
      // Sent as it is read from storage: a file of up to 200 MB is never held whole (docs/exports.md).
      const file =
        job.status === "pronta" && job.arquivo ? await deps.storage.readStream(EXPORT_FOLDER, job.arquivo) : null;
      if (!file) throw notFound(EXPORT_TEXTS.notFound);
      return new Response(file.body, {
        headers: {
          "content-type": job.tipo_arquivo ?? "application/octet-stream",
          "content-disposition": `attachment; filename="${job.nome_arquivo ?? "arquivo"}"`,
          "content-length": String(file.size),
          "cache-control": "private, no-store",
          "x-content-type-options": "nosniff",
        },
      });
    },
  );

  return app;
}
