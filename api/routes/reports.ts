import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { legacySlot } from "../domain/legacy.ts";
import { MAX_BOOKING_ROWS } from "../domain/limits.ts";
import { REPORT_TEXTS, reportPeriod, reportSlot, type ReportSlot } from "../domain/reports.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ApiError } from "../lib/errors.ts";
import { ListQuery } from "../lib/list-query.ts";
import { bearer, branchScopeQuery, errorResponses, int32, jsonResponse, searchFieldsQuery } from "../lib/openapi.ts";
import { mayReadPersonalData, searchFieldsFor } from "../lib/personal-data.ts";
import { LEGACY_DAY_MAX_ROWS, type LegacyHistoryRow } from "../services/legacy.ts";
import {
  COLLABORATOR_SEARCH_FIELDS,
  collaboratorReport,
  type CollaboratorReportRow,
} from "../services/reports/collaborators.ts";
import { ENVIRONMENT_SEARCH_FIELDS } from "../services/reports/environment-search.ts";
import { environmentReport, type EnvironmentReportRow } from "../services/reports/environments.ts";
import { reportDay, reportDays, reportRowsChunk, type ReportBookingRow } from "../services/reports/history.ts";

/**
 * The history reports' calls (ours, issue 23; docs/reports.md): what the report pages need beyond the §7 forms,
 * scoped like every list (tenant, branch, client branch, field staff's own work) and paged in SQL. The period is
 * checked as the pages check it (§5): no date after today, the end not before the start, at most a year.
 */

/** The report's search fields; all but the name are personal data. */
const COLLABORATOR_SEARCH = {
  all: COLLABORATOR_SEARCH_FIELDS,
  personal: ["cpf", "email", "telefone"] as const,
  message: REPORT_TEXTS.searchFieldsInvalid,
};

/** The period of a report call: 400 with the §5 text when a date is after today or reversed, or past a year. */
export function checkPeriod(query: { dataIni: string; dataFim: string }) {
  const checked = reportPeriod({ inicio: query.dataIni, fim: query.dataFim }, businessToday());
  if (!checked.ok) throw new ApiError(400, checked.message, { dataFim: [checked.message] });
  if (checked.cut) throw new ApiError(400, REPORT_TEXTS.periodTooLong, { dataFim: [REPORT_TEXTS.periodTooLong] });
}

const period = {
  dataIni: dateField(REPORT_TEXTS.invalidPeriod),
  dataFim: dateField(REPORT_TEXTS.invalidPeriod),
  ...branchScopeQuery,
};
const environmentFilter = int32.optional().openapi({ description: "One room (ambiente): 404 outside the scope" });
const collaboratorFilter = int32.optional().openapi({ description: "One collaborator: 404 outside the scope" });
const environmentSearchFields = searchFieldsQuery(
  ENVIRONMENT_SEARCH_FIELDS,
  REPORT_TEXTS.searchFieldsInvalid,
  "default ambiente",
);

/** 'Mostrar dados anteriores à Agosto/2022' (§2.9): `1` reads the old system's rows too (docs/legacy-data.md). */
const legacyToggle = z.enum(["0", "1"]).optional().openapi({
  description: "1: the old system's rows too ('Mostrar dados anteriores à Agosto/2022', docs/legacy-data.md)",
});

/** The field app's proof filters (docs/field-app.md 'Proof flags'): `1` counts only the slots with that flag. */
const proofFilter = (what: string) =>
  z
    .enum(["0", "1"])
    .optional()
    .openapi({
      description: `1: only the slots ${what}; the counts are of those slots (the old system's rows have none)`,
    });

export const CollaboratorReportParams = ListQuery.extend({
  ...period,
  ambienteId: environmentFilter,
  userId: collaboratorFilter,
  campos: searchFieldsQuery(COLLABORATOR_SEARCH_FIELDS, REPORT_TEXTS.searchFieldsInvalid, "default colaborador"),
  anteriores: legacyToggle,
  semQr: proofFilter("the field app started without the room's current QR value ('Sem leitura do QR')"),
  atraso: proofFilter("with a record received late ('Enviado com atraso')"),
});
export type CollaboratorReportParams = z.input<typeof CollaboratorReportParams>;

export const CollaboratorReportItem = z
  .object({
    id: z.number(),
    nome: z.string(),
    avatar: z.string().nullable(),
    filial: z.string().nullable(),
    cpf: z.string().optional(),
    email: z.string().optional(),
    telefone: z.string().optional(),
    dataNascimento: z.string().nullable().optional(),
    agendamentos: z.number().openapi({ description: "Bookings (slots) of the period" }),
    completos: z.number(),
    incompletos: z.number(),
    naoRealizados: z.number().openapi({ description: "Never started, on a day before today" }),
  })
  .openapi("CollaboratorReportItem");
export const CollaboratorReportPage = z
  .object({ items: z.array(CollaboratorReportItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("CollaboratorReportPage");
export type CollaboratorReportPage = z.infer<typeof CollaboratorReportPage>;

const collaboratorJson = (row: CollaboratorReportRow, personal: boolean) => ({
  id: row.id,
  nome: row.nome,
  avatar: row.avatar,
  filial: row.filial,
  ...(personal ? { cpf: row.cpf, email: row.email, telefone: row.telefone, dataNascimento: row.data_nascimento } : {}),
  agendamentos: row.agendamentos,
  completos: row.completos,
  incompletos: row.incompletos,
  naoRealizados: row.nao_realizados,
});

export const EnvironmentReportParams = ListQuery.extend({
  ...period,
  campos: environmentSearchFields,
  anteriores: legacyToggle,
});
export type EnvironmentReportParams = z.input<typeof EnvironmentReportParams>;

export const EnvironmentReportItem = z
  .object({
    id: z.number(),
    nome: z.string(),
    categoria: z.string(),
    setor: z.string(),
    andar: z.string(),
    filial: z.string(),
    agendamentos: z.number(),
    completos: z.number(),
    incompletos: z.number(),
    naoRealizados: z.number(),
  })
  .openapi("EnvironmentReportItem");
export const EnvironmentReportPage = z
  .object({ items: z.array(EnvironmentReportItem), total: z.number(), page: z.number(), size: z.number() })
  .openapi("EnvironmentReportPage");
export type EnvironmentReportPage = z.infer<typeof EnvironmentReportPage>;

const environmentJson = (row: EnvironmentReportRow) => ({
  id: row.id,
  nome: row.nome,
  categoria: row.categoria,
  setor: row.setor,
  andar: row.andar,
  filial: row.filial,
  agendamentos: row.agendamentos,
  completos: row.completos,
  incompletos: row.incompletos,
  naoRealizados: row.nao_realizados,
});

const Status = z.enum(["Completo", "Não Realizado", "Incompleto", "A iniciar", "Cancelado"]);

export const ReportDaysParams = ListQuery.extend({
  ...period,
  userId: int32.openapi({ description: "The collaborator: 404 outside the scope" }),
  ambienteId: environmentFilter,
  anteriores: legacyToggle,
});
export type ReportDaysParams = z.input<typeof ReportDaysParams>;

export const ReportDayItem = z
  .object({
    data: z.string().openapi({ description: "yyyy-MM-dd" }),
    ambienteId: z.number(),
    ambiente: z.string(),
    slots: z.number().openapi({ description: "Scheduled slots (Principal and Revisão) of the day" }),
    tarefas: z.number().openapi({ description: "Tasks asked: the room's procedures in each slot" }),
    feitas: z.number(),
    status: Status.openapi({ description: "Spec 001 §4 'Collaborator history day status'" }),
    anterior: z
      .boolean()
      .optional()
      .openapi({ description: "A day of the old system: its status is §4's old-system rule (docs/legacy-data.md)" }),
  })
  .openapi("ReportDayItem");
export const ReportDaysPage = z
  .object({
    colaborador: z.string(),
    items: z.array(ReportDayItem),
    total: z.number(),
    page: z.number(),
    size: z.number(),
  })
  .openapi("ReportDaysPage");
export type ReportDaysPage = z.infer<typeof ReportDaysPage>;

export const ReportDayParams = z.object({
  data: dateField(REPORT_TEXTS.invalidPeriod),
  userId: int32.openapi({ description: "The collaborator: 404 outside the scope" }),
  ambienteId: int32.openapi({ description: "The room: 404 outside the scope" }),
  ...branchScopeQuery,
  anteriores: legacyToggle,
});
export type ReportDayParams = z.input<typeof ReportDayParams>;

const ReportExecutionJson = z.object({
  id: z.number(),
  registradoEm: z.string().openapi({ description: "When the procedure was done (UTC; the phone's instant)" }),
  recebidoEm: z
    .string()
    .nullable()
    .openapi({ description: "When the server received it (UTC); null before the field app" }),
  foto: z.string().nullable().openapi({ description: "The photo's name: GET /api/fotos/{name}" }),
  observacao: z.string().nullable(),
  ocorrencia: z.string().nullable(),
});
const CleaningType = z.enum(["Principal", "Revisão", "Extra"]);

export const ReportSlotJson = z
  .object({
    agendamentoId: z.number(),
    tipo: CleaningType,
    horaIni: z.string(),
    horaFim: z.string(),
    inicio: z.string().nullable().openapi({ description: "Performed start (UTC)" }),
    fim: z.string().nullable().openapi({ description: "Performed end (UTC)" }),
    viaQr: z.boolean().nullable().openapi({
      description: "Started with the room's current QR value; false: 'Sem leitura do QR'; null: before the field app",
    }),
    envioAtrasoS: z.number().nullable().openapi({
      description: "Seconds the latest-sent record waited on the phone, when late ('Enviado com atraso'); else null",
    }),
    inicioRecebido: z.string().nullable().openapi({ description: "When the start reached the server (UTC)" }),
    fimRecebido: z.string().nullable().openapi({ description: "When the end reached the server (UTC)" }),
    justificativa: z.string().nullable(),
    status: Status.openapi({ description: "Spec 001 §4 'Environment report statuses' (the slot's group)" }),
    tempos: z.object({
      execucao: z.string().openapi({ description: "hh:mm:ss, ' - ' when missing; capped at 24 h" }),
      estimado: z.string(),
      otimizado: z.string().openapi({ description: "'+ hh:mm:ss' / '- hh:mm:ss' / ' - '" }),
    }),
    tarefas: z.array(
      z.object({
        procedimentoId: z.number(),
        procedimento: z.string(),
        tipo: CleaningType,
        status: Status,
        execucao: ReportExecutionJson.nullable(),
      }),
    ),
  })
  .openapi("ReportSlot");
/** An old row of the day (§3 'Old-system dashboard row' as a slot; its status by §4's old-system rule). */
export const LegacyDayRow = z
  .object({
    id: z.number().openapi({ description: "The old row's ID" }),
    tipo: z.enum(["Principal", "Revisão"]),
    procedimento: z.string().nullable(),
    horaIni: z.string(),
    horaFim: z.string(),
    inicio: z.string().openapi({ description: "INICIO (UTC)" }),
    fim: z.string().nullable(),
    tempos: z.object({ execucao: z.string(), estimado: z.string(), otimizado: z.string() }),
    observacao: z.string().nullable(),
    status: z.enum(["Completo", "Incompleto"]),
  })
  .openapi("LegacyDayRow");

export const ReportDayDetail = z
  .object({
    data: z.string(),
    ambiente: z.string(),
    colaborador: z.string(),
    slots: z.array(ReportSlotJson),
    anteriores: z.array(LegacyDayRow).openapi({
      description: `anteriores=1: the old system's rows of the day, at most ${LEGACY_DAY_MAX_ROWS}; else empty`,
    }),
  })
  .openapi("ReportDayDetail");

const legacyDayJson = (row: LegacyHistoryRow): z.infer<typeof LegacyDayRow> => {
  const slot = legacySlot(row);
  return {
    id: row.legacyId,
    tipo: slot.tipo,
    procedimento: row.procedimentoNome ?? row.procedimentos,
    horaIni: slot.horaIni,
    horaFim: slot.horaFim,
    inicio: row.inicio.toISOString(),
    fim: row.fim?.toISOString() ?? null,
    tempos: { execucao: slot.times.execution, estimado: slot.times.estimated, otimizado: slot.times.optimised },
    observacao: row.observacao,
    status: row.status,
  };
};
export type ReportDayDetail = z.infer<typeof ReportDayDetail>;

/** A slot's proof fields (docs/field-app.md 'Proof flags'), as the day detail and the report rows carry them. */
const proofJson = (slot: ReportSlot) => ({
  viaQr: slot.viaQr ?? null,
  envioAtrasoS: slot.envioAtrasoS ?? null,
  inicioRecebido: slot.startReceivedAt ?? null,
  fimRecebido: slot.finishReceivedAt ?? null,
});

const slotJson = (slot: ReportSlot): z.infer<typeof ReportSlotJson> => ({
  agendamentoId: slot.bookingId,
  tipo: slot.type,
  horaIni: slot.horaIni,
  horaFim: slot.horaFim,
  inicio: slot.startDate,
  fim: slot.finishedAt,
  ...proofJson(slot),
  justificativa: slot.justificativa,
  status: slot.status,
  tempos: { execucao: slot.times.execution, estimado: slot.times.estimated, otimizado: slot.times.optimised },
  tarefas: slot.tasks.map((task) => ({
    procedimentoId: task.procedureId,
    procedimento: task.procedure,
    tipo: task.type,
    status: task.status,
    execucao: task.execution && {
      id: task.execution.id,
      registradoEm: task.execution.createdAt,
      recebidoEm: task.execution.receivedAt ?? null,
      foto: task.execution.image,
      observacao: task.execution.observacao,
      ocorrencia: task.execution.ocorrencia,
    },
  })),
});

export const ReportRowsParams = z.object({
  ...period,
  userId: collaboratorFilter,
  ambienteId: environmentFilter,
  q: z.string().max(200).optional().openapi({ description: "The rooms' search, in campos" }),
  campos: environmentSearchFields,
  after: z
    .string()
    .max(2000)
    .optional()
    .openapi({ description: "'' or absent: the first chunk; then the answer's next" }),
  anteriores: legacyToggle,
  size: z.coerce
    .number()
    .int()
    .min(1, REPORT_TEXTS.chunkSizeInvalid)
    .max(MAX_BOOKING_ROWS, REPORT_TEXTS.chunkSizeInvalid)
    .optional()
    .openapi({ description: `Slots per chunk, 1 to ${MAX_BOOKING_ROWS} (default); each slot brings its tasks` }),
});
export type ReportRowsParams = z.input<typeof ReportRowsParams>;

export const ReportRow = z
  .object({
    agendaId: z.number().nullable().openapi({ description: "null for an old-system row" }),
    agendamentoId: z.number().openapi({ description: "The booking's id; an old-system row's ID" }),
    anterior: z.boolean().openapi({ description: "An old-system row ('Mostrar dados anteriores à Agosto/2022')" }),
    filial: z.string(),
    ambiente: z.string(),
    categoria: z.string(),
    setor: z.string(),
    andar: z.string(),
    colaborador: z.string(),
    procedimento: z.string(),
    tipo: CleaningType,
    data: z.string().openapi({ description: "Scheduled day, yyyy-MM-dd" }),
    horaIni: z.string(),
    horaFim: z.string(),
    tempoEstimado: z.string(),
    inicio: z.string().nullable(),
    fim: z.string().nullable(),
    tempoExecucao: z.string(),
    diferenca: z.string(),
    observacao: z.string().nullable(),
    descricao: z
      .string()
      .nullable()
      .openapi({ description: "The execution's ocorrência, else the slot's justificativa" }),
    status: Status,
    foto: z.string().nullable(),
    viaQr: z.boolean().nullable().openapi({
      description: "Started with the room's current QR value; false: 'Sem leitura do QR'; null: before the field app",
    }),
    envioAtrasoS: z.number().nullable().openapi({
      description: "Seconds the latest-sent record waited on the phone, when late ('Enviado com atraso'); else null",
    }),
    inicioRecebido: z.string().nullable().openapi({ description: "When the start reached the server (UTC)" }),
    fimRecebido: z.string().nullable().openapi({ description: "When the end reached the server (UTC)" }),
    registradoEm: z.string().nullable().openapi({ description: "When the task's execution was done (UTC)" }),
    registroRecebido: z
      .string()
      .nullable()
      .openapi({ description: "When the task's execution reached the server (UTC); null before the field app" }),
  })
  .openapi("ReportRow");
export type ReportRow = z.infer<typeof ReportRow>;
export const ReportRowsChunk = z
  .object({ items: z.array(ReportRow), next: z.string().nullable() })
  .openapi("ReportRowsChunk");
export type ReportRowsChunk = z.infer<typeof ReportRowsChunk>;

/** A slot's lines (§3 'Report row'): one per task, the slot's names and times on each. */
const rowsOf = (booking: ReportBookingRow, slot: ReportSlot): ReportRow[] =>
  slot.tasks.map((task) => ({
    agendaId: booking.agendaId,
    agendamentoId: booking.id,
    anterior: false,
    filial: booking.filial,
    ambiente: booking.ambiente,
    categoria: booking.categoria,
    setor: booking.setor,
    andar: booking.andar,
    colaborador: booking.colaborador,
    procedimento: task.procedure,
    tipo: task.type,
    data: booking.dataAgend,
    horaIni: slot.horaIni,
    horaFim: slot.horaFim,
    tempoEstimado: slot.times.estimated,
    inicio: slot.startDate,
    fim: slot.finishedAt,
    tempoExecucao: slot.times.execution,
    diferenca: slot.times.optimised,
    observacao: task.execution?.observacao ?? null,
    descricao: task.execution?.ocorrencia || slot.justificativa,
    status: task.status,
    foto: task.execution?.image ?? null,
    ...proofJson(slot),
    registradoEm: task.execution?.createdAt ?? null,
    registroRecebido: task.execution?.receivedAt ?? null,
  }));

/** An old row as a report line: its names as they were, one procedure, no agenda and no photo (not imported). */
const legacyRowOf = (row: LegacyHistoryRow): ReportRow => {
  const slot = legacySlot(row);
  return {
    agendaId: null,
    agendamentoId: row.legacyId,
    anterior: true,
    filial: row.empresa,
    ambiente: row.ambienteNome,
    categoria: row.categoria ?? "",
    setor: row.setor ?? "",
    andar: row.andar ?? "",
    colaborador: row.nomeUsuario,
    procedimento: row.procedimentoNome ?? row.procedimentos ?? "",
    tipo: slot.tipo,
    data: slot.data,
    horaIni: slot.horaIni,
    horaFim: slot.horaFim,
    tempoEstimado: slot.times.estimated,
    inicio: row.inicio.toISOString(),
    fim: row.fim?.toISOString() ?? null,
    tempoExecucao: slot.times.execution,
    diferenca: slot.times.optimised,
    observacao: row.observacao,
    descricao: null,
    status: row.status,
    foto: null,
    viaQr: null,
    envioAtrasoS: null,
    inicioRecebido: null,
    fimRecebido: null,
    registradoEm: null,
    registroRecebido: null,
  };
};

const tags = ["Relatórios"];

export function reportRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/colaboradores",
      tags,
      summary:
        "Ours (spec 001 §2.9): one row per collaborator with bookings in the period, in scope, with the period's " +
        "counts; searched (q, campos), sorted and paged in SQL. CPF, e-mail, phone and birth date (and searching " +
        "them) only for callers who may read users",
      security: bearer,
      request: { query: CollaboratorReportParams },
      responses: {
        200: jsonResponse("One page of collaborators", CollaboratorReportPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const user = ctx.get("user");
      const personal = mayReadPersonalData(user);
      const { rows, total, page, size } = await collaboratorReport(db, ctx.get("scope"), {
        ...query,
        environmentId: query.ambienteId,
        campos: searchFieldsFor(user, query.campos, COLLABORATOR_SEARCH),
        today: businessToday(),
        anteriores: query.anteriores === "1",
        semQr: query.semQr === "1",
        atraso: query.atraso === "1",
      });
      return ctx.json({ items: rows.map((row) => collaboratorJson(row, personal)), total, page, size }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/ambientes",
      tags,
      summary:
        "Ours (spec 001 §2.10): one card per room with bookings in the period, in scope, with the period's counts; " +
        "the rooms searched (q, campos: ambiente, categoria, setor, andar), sorted and paged in SQL; anteriores=1: " +
        "the old system's rows counted too, a room with old rows only included",
      security: bearer,
      request: { query: EnvironmentReportParams },
      responses: {
        200: jsonResponse("One page of rooms", EnvironmentReportPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const { rows, total, page, size } = await environmentReport(db, ctx.get("scope"), {
        ...query,
        today: businessToday(),
        anteriores: query.anteriores === "1",
      });
      return ctx.json({ items: rows.map(environmentJson), total, page, size }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/dias",
      tags,
      summary:
        "Ours (spec 001 §2.9 history, §2.10 second level): a collaborator's (room, day) groups of the period, newest " +
        "first, each with its §4 day status; optionally one room; paged in SQL",
      security: bearer,
      request: { query: ReportDaysParams },
      responses: {
        200: jsonResponse("One page of days", ReportDaysPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const { collaborator, items, total, page, size } = await reportDays(db, ctx.get("scope"), {
        ...query,
        environmentId: query.ambienteId,
        today: businessToday(),
        anteriores: query.anteriores === "1",
      });
      return ctx.json(
        {
          colaborador: collaborator,
          items: items.map(({ environmentId, ...day }) => ({ ...day, ambienteId: environmentId })),
          total,
          page,
          size,
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/dia",
      tags,
      summary:
        "Ours ('Detalhes do Histórico', spec 001 §2.9; §2.10's procedure details): a collaborator's day in one room, " +
        "slot by slot: each procedure's status and execution (photo, observation), leftovers as Extra, the slot's " +
        "§4 status and its three §9 times",
      security: bearer,
      request: { query: ReportDayParams },
      responses: {
        200: jsonResponse("The day's slots (none: nothing was scheduled)", ReportDayDetail),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod({ dataIni: query.data, dataFim: query.data });
      const day = await reportDay(db, ctx.get("scope"), {
        ...query,
        environmentId: query.ambienteId,
        today: businessToday(),
        anteriores: query.anteriores === "1",
      });
      return ctx.json(
        {
          data: query.data,
          ambiente: day.environment,
          colaborador: day.collaborator,
          slots: day.slots.map(slotJson),
          anteriores: day.legacy.map(legacyDayJson),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/linhas",
      tags,
      summary:
        "Ours (spec 001 §3 'Report row'; the reports' Excel and PDF): every task of the period's slots in scope, " +
        "optionally of one collaborator, one room or the rooms a search finds, in day and time order, in keyset " +
        "chunks of slots ({ items, next }; next null after the last)",
      security: bearer,
      request: { query: ReportRowsParams },
      responses: {
        200: jsonResponse("One chunk of rows", ReportRowsChunk),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const today = businessToday();
      const { slots, legacy, next } = await reportRowsChunk(db, ctx.get("scope"), {
        ...query,
        environmentId: query.ambienteId,
        after: query.after ?? "",
        size: query.size ?? MAX_BOOKING_ROWS,
        anteriores: query.anteriores === "1",
      });
      const items = [
        ...legacy.map(legacyRowOf),
        ...slots.flatMap((booking) => rowsOf(booking, reportSlot(booking, today))),
      ];
      return ctx.json({ items, next }, 200);
    },
  );

  return app;
}
