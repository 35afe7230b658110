import { OpenAPIHono } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";

import { requireUser } from "./auth/middleware.ts";
import type { ApiDeps, ApiEnv } from "./context.ts";
import { isDatabaseUnavailable } from "./db/connection.ts";
import { UNEXPECTED } from "./domain/messages.ts";
import { DEFAULT_BODY_LIMITS, limitBodies } from "./lib/body-limit.ts";
import { ApiError } from "./lib/errors.ts";
import { serveOpenApi } from "./lib/openapi.ts";
import { TooManyAttempts } from "./lib/rate-limit.ts";
import { agendaRoutes } from "./routes/agendas.ts";
import { auditRoutes } from "./routes/audit.ts";
import { branchRoutes } from "./routes/branches.ts";
import { catalogueRoutes } from "./routes/catalogues.ts";
import { companyRoutes } from "./routes/companies.ts";
import { companyUserRoutes } from "./routes/company-users.ts";
import { environmentImportRoutes } from "./routes/environment-import.ts";
import { environmentRoutes } from "./routes/environments.ts";
import { executionIncidentRoutes } from "./routes/execution-incidents.ts";
import { executionRoutes } from "./routes/execution.ts";
import { exportRoutes } from "./routes/exports.ts";
import { fieldRoutes } from "./routes/field.ts";
import { fileRoutes } from "./routes/files.ts";
import { historyRoutes } from "./routes/history.ts";
import { incidentKindRoutes } from "./routes/incident-kinds.ts";
import { incidentRoutes } from "./routes/incidents.ts";
import { guardVisitorFloods, infoRoutes } from "./routes/info.ts";
import { inspectionChecklistRoutes } from "./routes/inspection-checklists.ts";
import { inspectionRoutes } from "./routes/inspections.ts";
import { legacyRoutes } from "./routes/legacy.ts";
import { passwordRoutes } from "./routes/password.ts";
import { preRegisteredCpfRoutes } from "./routes/pre-registered-cpfs.ts";
import { reportActivityRoutes } from "./routes/report-activities.ts";
import { clientReportRoutes } from "./routes/report-client.ts";
import { incompleteTaskRoutes } from "./routes/report-incomplete.ts";
import { reportRoutes } from "./routes/reports.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { signUpRoutes, userRoutes } from "./routes/users.ts";

export { UNEXPECTED };

export const UNAVAILABLE = "O sistema está temporariamente indisponível. Tente novamente em alguns instantes.";
export const RETRY_AFTER_S = 5;

function isDataException(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^22[0-9A-Z]{3}$/.test(code);
}

/** Field messages keyed by the request's field names, as the web forms show them. */
export function fieldErrorsOf(error: ZodError) {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}

/**
 * The REST API of spec §7, a fetch handler (Request in, Response out): server.ts mounts it under /api and the web
 * app calls it in-process. Public routes come first; everything registered after requireUser needs a token.
 */
export function createApi(deps: ApiDeps) {
  const api = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        const fieldErrors = fieldErrorsOf(result.error);
        const message = Object.values(fieldErrors)[0]?.[0] ?? "Dados inválidos";
        return c.json({ message, fieldErrors }, 400);
      }
    },
  }).basePath("/api");

  api.onError((error, c) => {
    if (error instanceof ApiError) {
      return c.json(
        { message: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}) },
        error.status,
        error instanceof TooManyAttempts ? { "retry-after": String(error.retryAfterSeconds) } : {},
      );
    }
    // Hono's own client errors (malformed JSON, a body of the wrong content type) are the caller's fault, not ours.
    if (error instanceof HTTPException && error.status < 500) {
      const message = error.status === 415 ? "Tipo de conteúdo não suportado" : "Requisição inválida";
      return c.json({ message }, error.status);
    }
    // The database is unreachable (a terminated connection, a server restart, an unreadable data directory): not
    // the caller's fault and not a bug here. 503 with Retry-After; the pool reconnects by itself once it is back.
    if (isDatabaseUnavailable(error)) {
      deps.logger.warn({ err: error, path: c.req.path }, "database unavailable");
      return c.json({ message: UNAVAILABLE }, 503, { "retry-after": String(RETRY_AFTER_S) });
    }
    // PostgreSQL's class 22 'data exception' (a number out of range, a NUL byte in text, a malformed date) is always
    // caused by the values sent: a client error, whatever route let the value through.
    if (isDataException(error)) return c.json({ message: "Dados inválidos" }, 400);
    deps.logger.error({ err: error, path: c.req.path }, "unexpected API error");
    return c.json({ message: UNEXPECTED }, 500);
  });
  api.notFound((c) => c.json({ message: "Rota não encontrada" }, 404));

  // Cheaper still, and first: a visitor's post from a known flood is refused before its body is read at all.
  guardVisitorFloods(api);
  // Bodies over BODY_LIMIT / UPLOAD_LIMIT, and forms over their parts and fields, are refused before any route reads
  // them (413; a form that does not parse, 400).
  api.use(
    "*",
    limitBodies(
      {
        body: deps.config.bodyLimit ?? DEFAULT_BODY_LIMITS.body,
        upload: deps.config.uploadLimit ?? DEFAULT_BODY_LIMITS.upload,
      },
      (c, message, status) => c.json({ message }, status, { connection: "close" }),
    ),
  );

  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer" });
  // Completed by one set of rules (401, 413, 415, 503 …) instead of each route repeating them: api/lib/openapi.ts.
  serveOpenApi(api, "/openapi.json", {
    openapi: "3.1.0",
    info: {
      title: "Limpeza back-office API",
      version: "1.0.0",
      description: "The REST contract of spec 000 §7 and 001 §7, plus the list and report endpoints the web app adds.",
    },
  });

  // Public: sign-in, sign-up, password recovery, public files, the room page.
  api.route("/", sessionRoutes(deps));
  api.route("/", signUpRoutes(deps));
  api.route("/", passwordRoutes(deps));
  api.route("/", fileRoutes(deps));
  api.route("/", infoRoutes(deps));

  // Everything below needs a bearer token.
  api.use("*", requireUser(deps));
  api.route("/", userRoutes(deps));
  api.route("/", companyUserRoutes(deps));
  api.route("/", branchRoutes(deps));
  api.route("/", preRegisteredCpfRoutes(deps));
  api.route("/", companyRoutes(deps));
  api.route("/", catalogueRoutes(deps));
  // Before environmentRoutes: GET /environments/dashboard (the old system's, spec 001 §7) is not /environments/{id}.
  api.route("/", legacyRoutes(deps));
  api.route("/", environmentRoutes(deps));
  api.route("/", environmentImportRoutes(deps));
  api.route("/", agendaRoutes(deps));
  api.route("/", historyRoutes(deps));
  api.route("/", reportRoutes(deps));
  api.route("/", clientReportRoutes(deps));
  api.route("/", reportActivityRoutes(deps));
  api.route("/", incompleteTaskRoutes(deps));
  api.route("/", auditRoutes(deps));
  api.route("/", executionRoutes(deps));
  api.route("/", executionIncidentRoutes(deps));
  api.route("/", fieldRoutes(deps));
  // Before incidentRoutes: /ocorrencias/tipos is not /ocorrencias/{id}.
  api.route("/", incidentKindRoutes(deps));
  api.route("/", incidentRoutes(deps));
  // Before inspectionRoutes: /inspecoes/checklists is not /inspecoes/{id}.
  api.route("/", inspectionChecklistRoutes(deps));
  api.route("/", inspectionRoutes(deps));
  api.route("/", exportRoutes(deps));

  return api;
}

export type Api = ReturnType<typeof createApi>;
