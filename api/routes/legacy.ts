import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { MAX_BOOKING_ROWS } from "../domain/limits.ts";
import { REPORT_TEXTS } from "../domain/reports.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { SCHEDULE_TEXTS } from "../domain/schedule-texts.ts";
import { ApiError } from "../lib/errors.ts";
import { bearer, errorResponses, int32, iso, jsonResponse } from "../lib/openapi.ts";
import { mayReadPersonalData } from "../lib/personal-data.ts";
import {
  legacyEnvironmentDashboard,
  legacyEnvironmentHistory,
  legacyObservations,
  legacyUserDashboard,
  type LegacyHistoryRow,
  type LegacyObservation,
} from "../services/legacy.ts";

/**
 * The old-system calls of spec 001 §7 (GET /dash/user, /environments/dashboard, /info/all/environments, /observacao):
 * HTTP only, over api/services/legacy.ts (docs/legacy-data.md). Any signed-in user, within scope; paged (`limit`,
 * `page`; `more` says another page exists). §8: an old-system call that fails inside answers its empty list (the
 * failure is logged); a bad query is still 400 and an id outside the scope 404.
 */

const tags = ["Sistema anterior"];

/** §3 'Old-system dashboard row', with its §4 status (ours). Instants in ISO 8601 (UTC), times 'HH:mm:ss'. */
export const LegacyDashboardRow = z
  .object({
    ID: z.number().openapi({ description: "The old row's ID" }),
    AMBIENTE_ID: z.number(),
    AMBIENTE_NOME: z.string(),
    INICIO: z.string(),
    FIM: z.string().nullable(),
    IMAGEM: z.string().nullable(),
    PROCEDIMENTO_NOME: z.string().nullable(),
    HORA_INICIAL_PRINCIPAL_AMBIENTE: z.string().nullable(),
    HORA_FINAL_PRINCIPAL_AMBIENTE: z.string().nullable(),
    DATA_CRIACAO: z.string().nullable(),
    REVISAO_ID: z.number().nullable(),
    EMPRESA: z.string(),
    CATEGORIA: z.string().nullable(),
    SETOR: z.string().nullable(),
    ANDAR: z.string().nullable(),
    PROCEDIMENTOS: z.string().nullable(),
    REVISAO_INICIAL: z.string().nullable(),
    REVISAO_FINAL: z.string().nullable(),
    DATA_CRIACAO_HISTORICO: z.string().nullable(),
    DATA_FINALIZACAO_HISTORICO: z.string().nullable(),
    nome_users: z.string(),
    userId: z.number(),
    observacao: z.string().nullable(),
    status: z.enum(["Completo", "Incompleto"]).openapi({ description: "§4 'Old-system rows' (ours: computed here)" }),
  })
  .openapi("LegacyDashboardRow");

/** §3 'Old environment row', with the old row's ID, its observation and its §4 status (ours). */
export const LegacyEnvironmentRow = z
  .object({
    ID: z.number(),
    id_usuario: z.number(),
    data_inicio: z.string(),
    data_fim: z.string().nullable(),
    ambiente_nome: z.string(),
    categoria_nome: z.string().nullable(),
    setor_nome: z.string().nullable(),
    andar: z.string().nullable(),
    procedimento: z.string().nullable(),
    imagem: z.string().nullable(),
    cpf: z.string().nullable().openapi({ description: "Today's; null unless the caller may read users" }),
    email_usuario: z.string().nullable(),
    nome_usuario: z.string(),
    telefone: z.string().nullable(),
    observacao: z.string().nullable(),
    status: z.enum(["Completo", "Incompleto"]),
  })
  .openapi("LegacyEnvironmentRow");

/** §3 'Observation (old system)'. */
export const LegacyObservationItem = z
  .object({
    id: z.number(),
    createdAt: z.string(),
    environmentId: z.number().nullable(),
    userId: z.number().nullable(),
    observacao: z.string(),
  })
  .openapi("LegacyObservation");

const more = z.boolean().openapi({ description: "Ours: true when the next page (page + 1) holds more" });

export const LegacyUserAnswer = z
  .object({ data: z.array(LegacyDashboardRow), obs: z.array(LegacyObservationItem), more })
  .openapi("LegacyUserDashboard");
export const LegacyEnvironmentsAnswer = z
  .object({ historico: z.array(LegacyDashboardRow), more })
  .openapi("LegacyEnvironmentsDashboard");
export const LegacyEnvironmentAnswer = z
  .object({ data: z.array(LegacyEnvironmentRow), obs: z.array(LegacyObservationItem), more })
  .openapi("LegacyEnvironmentHistory");
export const LegacyObservationsAnswer = z
  .object({ objetoFodaResponse: z.array(LegacyObservationItem), more })
  .openapi("LegacyObservations");

const text = (value: Date | null) => iso(value);

export const dashboardRowJson = (row: LegacyHistoryRow): z.infer<typeof LegacyDashboardRow> => ({
  ID: row.legacyId,
  AMBIENTE_ID: row.environmentId,
  AMBIENTE_NOME: row.ambienteNome,
  INICIO: row.inicio.toISOString(),
  FIM: text(row.fim),
  IMAGEM: row.imagem,
  PROCEDIMENTO_NOME: row.procedimentoNome,
  HORA_INICIAL_PRINCIPAL_AMBIENTE: row.horaInicialPrincipal,
  HORA_FINAL_PRINCIPAL_AMBIENTE: row.horaFinalPrincipal,
  DATA_CRIACAO: text(row.dataCriacao),
  REVISAO_ID: row.revisaoId,
  EMPRESA: row.empresa,
  CATEGORIA: row.categoria,
  SETOR: row.setor,
  ANDAR: row.andar,
  PROCEDIMENTOS: row.procedimentos,
  REVISAO_INICIAL: row.revisaoInicial,
  REVISAO_FINAL: row.revisaoFinal,
  DATA_CRIACAO_HISTORICO: text(row.dataCriacaoHistorico),
  DATA_FINALIZACAO_HISTORICO: text(row.dataFinalizacaoHistorico),
  nome_users: row.nomeUsuario,
  userId: row.userId,
  observacao: row.observacao,
  status: row.status,
});

const environmentRowJson = (row: LegacyHistoryRow): z.infer<typeof LegacyEnvironmentRow> => ({
  ID: row.legacyId,
  id_usuario: row.userId,
  data_inicio: row.inicio.toISOString(),
  data_fim: text(row.fim),
  ambiente_nome: row.ambienteNome,
  categoria_nome: row.categoria,
  setor_nome: row.setor,
  andar: row.andar,
  procedimento: row.procedimentoNome,
  imagem: row.imagem,
  cpf: row.cpf ?? null,
  email_usuario: row.email ?? null,
  nome_usuario: row.nomeUsuario,
  telefone: row.telefone ?? null,
  observacao: row.observacao,
  status: row.status,
});

const observationJson = (row: LegacyObservation): z.infer<typeof LegacyObservationItem> => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  environmentId: row.environmentId,
  userId: row.userId,
  observacao: row.observacao,
});

const period = {
  dataInicio: dateField(REPORT_TEXTS.invalidPeriod),
  dataFim: dateField(REPORT_TEXTS.invalidPeriod),
};
const paging = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_BOOKING_ROWS)
    .default(MAX_BOOKING_ROWS)
    .openapi({ description: `Rows per page (default and at most ${MAX_BOOKING_ROWS})` }),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1).openapi({ description: "From 1 (default 1)" }),
};
const companyField = (name: string) =>
  int32.openapi({ description: `${name}: the caller's main company (Id_Empresas); another is 404` });
const branchField = int32
  .optional()
  .openapi({ description: "Ours: one branch of the company; -1 or none = the caller's whole scope" });

export const LegacyUserParams = z.object({
  userId: int32.openapi({ description: "The collaborator: 404 outside the scope" }),
  ...period,
  ...paging,
});
export const LegacyEnvironmentsParams = z.object({
  dataI: period.dataInicio,
  dataF: period.dataFim,
  idEmpresa: companyField("idEmpresa"),
  filialId: branchField,
  ...paging,
});
export const LegacyEnvironmentParams = z.object({
  environmentId: int32.openapi({ description: "The room: 404 outside the scope" }),
  ...period,
  ...paging,
});
export const LegacyObservationParams = z.object({
  id: companyField("id"),
  filialId: branchField,
  ...period,
  ...paging,
});

/** The end before the start: the §5 text, as the other period checks. */
function checkPeriod(start: string, end: string) {
  if (end < start) {
    throw new ApiError(400, SCHEDULE_TEXTS.dateRangeInvalid, { dataFim: [SCHEDULE_TEXTS.dateRangeInvalid] });
  }
}

const answersWith = <T extends z.ZodType>(description: string, schema: T) => ({
  200: jsonResponse(description, schema),
  400: errorResponses[400],
  404: errorResponses[404],
});

/** What one old-system call states: all that differs between the four (see oldSystemCall). */
type OldSystemCall<Q extends z.ZodObject, A extends z.ZodType> = {
  path: string;
  summary: string;
  query: Q;
  answer: { description: string; schema: A };
  /** The period's start and end as this call's query names them: checked first (§5), a bad one is 400. */
  period: (query: z.output<Q>) => readonly [start: string, end: string];
  /** The service call and its rows as JSON; an ApiError (400, 404) it throws is answered as it is. */
  read: (ctx: Context<ApiEnv>, query: z.output<Q>) => Promise<z.output<A>>;
  /** The §8 answer when `read` fails inside. */
  empty: z.output<A>;
};

export function legacyRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  /**
   * Registers one old-system call. The four share their route (tag, bearer, 200/400/404) and their §8 rule, so they
   * are written once here and cannot drift apart; each call states only its path, texts, schemas and service call.
   * §8: the old-system calls never fail the page. A refusal of the request (400, 404) is still answered; anything
   * else (the database, a bug) is logged and answers the call's empty list.
   */
  function oldSystemCall<Q extends z.ZodObject, A extends z.ZodType>(call: OldSystemCall<Q, A>) {
    const route = createRoute({
      method: "get",
      path: call.path,
      tags,
      summary: call.summary,
      security: bearer,
      request: { query: call.query },
      responses: answersWith(call.answer.description, call.answer.schema),
    });
    // Over a generic route hono cannot compute the validated query's type; it is the call's `query` schema's output.
    app.openapi(route, async (ctx) => {
      const query = ctx.req.valid("query" as never) as z.output<Q>;
      checkPeriod(...call.period(query));
      let answer: z.output<A>;
      try {
        answer = await call.read(ctx, query);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        deps.logger.error(
          { err: error, path: ctx.req.path },
          "old-system call failed: answering an empty list (spec 001 §8)",
        );
        answer = call.empty;
      }
      return ctx.json(answer, 200);
    });
  }

  oldSystemCall({
    path: "/dash/user",
    summary: "A collaborator's old-system rows (data) and observations (obs) of a period, in scope",
    query: LegacyUserParams,
    answer: { description: "The old rows and observations, in time order", schema: LegacyUserAnswer },
    period: (query) => [query.dataInicio, query.dataFim],
    read: async (ctx, query) => {
      const found = await legacyUserDashboard(db, ctx.get("scope"), query);
      return { data: found.data.map(dashboardRowJson), obs: found.obs.map(observationJson), more: found.more };
    },
    empty: { data: [], obs: [], more: false },
  });

  oldSystemCall({
    path: "/environments/dashboard",
    summary: "The old-system rows of the company (or one branch) of a period, in scope",
    query: LegacyEnvironmentsParams,
    answer: { description: "The old rows (historico), in time order", schema: LegacyEnvironmentsAnswer },
    period: (query) => [query.dataI, query.dataF],
    read: async (ctx, query) => {
      const found = await legacyEnvironmentDashboard(db, ctx.get("scope"), {
        dataInicio: query.dataI,
        dataFim: query.dataF,
        companyId: query.idEmpresa,
        filialId: query.filialId,
        limit: query.limit,
        page: query.page,
      });
      return { historico: found.historico.map(dashboardRowJson), more: found.more };
    },
    empty: { historico: [], more: false },
  });

  oldSystemCall({
    path: "/info/all/environments",
    summary: "A room's old-system rows (the old environment row) and observations of a period, in scope",
    query: LegacyEnvironmentParams,
    answer: { description: "The room's old rows and observations, in time order", schema: LegacyEnvironmentAnswer },
    period: (query) => [query.dataInicio, query.dataFim],
    read: async (ctx, query) => {
      const personal = mayReadPersonalData(ctx.get("user"));
      const found = await legacyEnvironmentHistory(db, ctx.get("scope"), { ...query, personal });
      return { data: found.data.map(environmentRowJson), obs: found.obs.map(observationJson), more: found.more };
    },
    empty: { data: [], obs: [], more: false },
  });

  oldSystemCall({
    path: "/observacao",
    summary: "The old-system observations of the company (or one branch) of a period, in scope",
    query: LegacyObservationParams,
    answer: { description: "The observations (objetoFodaResponse), in time order", schema: LegacyObservationsAnswer },
    period: (query) => [query.dataInicio, query.dataFim],
    read: async (ctx, query) => {
      const found = await legacyObservations(db, ctx.get("scope"), { ...query, companyId: query.id });
      return { objetoFodaResponse: found.objetoFodaResponse.map(observationJson), more: found.more };
    },
    empty: { objetoFodaResponse: [], more: false },
  });

  return app;
}
