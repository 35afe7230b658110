import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import { requirePermission } from "../auth/middleware.ts";
import type { ApiDeps, ApiEnv } from "../context.ts";
import { BOOKING_STATUS_FILTERS } from "../domain/board.ts";
import { cleaningType } from "../domain/reports.ts";
import { SaveAgendaItem, UpdateAgenda } from "../domain/schedule-payloads.ts";
import { dateField, MAX_SAVE_BOOKINGS, MAX_SAVE_ITEMS } from "../domain/schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "../domain/schedule-texts.ts";
import {
  bearer,
  branchScopeQuery,
  errorResponses,
  hhmm,
  int32,
  iso,
  isoText,
  jsonBody,
  jsonResponse,
  limitPageQuery,
  searchFieldsQuery,
} from "../lib/openapi.ts";
import { mayReadPersonalData, searchFieldsFor } from "../lib/personal-data.ts";
import {
  createAgendas,
  deleteBooking,
  findAgenda,
  listBookings,
  listSchedulableUsers,
  summariseBookings,
  updateAgenda,
  BOOKING_SEARCH_FIELDS,
  type AgendaRow,
  type AsgRow,
  type BookingRow,
} from "../services/scheduling.ts";

/**
 * Agendas and bookings (agendamentos) of spec 001 §7: HTTP only, the rules and SQL are api/services/scheduling.ts
 * (docs/scheduling.md has the contract table). Reads: any signed-in user, within scope. Writes: the roles of the
 * /agendamentos page (spec 001 §6: roleId 1, 2, 3 or none: manageRegisters); a branch-level user writes in their
 * own branch only.
 */

/** The spec's Periodicidade (§3), with the kinds' lists of ours (DIAS_SEMANA_2, DIAS_MES, DATAS_ANUAIS). */
export const AgendaPeriodicity = z
  .object({
    ID: z.number(),
    NOME: z.string(),
    ATIVO: z.boolean(),
    DIAS_SEMANA: z.string(),
    DIAS_SEMANA_2: z.string(),
    DIAS_MES: z.array(z.number()),
    DATAS_ANUAIS: z.array(z.string()),
    QTD_DIAS: z.number().nullable(),
    HORA_BASE_INICIAL: z.string().openapi({ description: "HH:mm" }),
    HORA_BASE_FINAL: z.string(),
    DATA_CRIACAO: z.string(),
    type: z.enum(["sem", "12X"]),
    Revisoes: z.array(z.object({ ID: z.number(), HORA_INICIAL: z.string(), HORA_FINAL: z.string() })),
  })
  .openapi("AgendaPeriodicity");

/** The spec's Agenda (§3) as the edit modal starts from it (GET /agendas/{id}, the answer of an update). */
export const AgendaDetail = z
  .object({
    ID: z.number(),
    ATIVO: z.boolean(),
    FINALIZADO: z.boolean(),
    DATA_FINALIZACAO: z.string().nullable(),
    Id_EmpresasFilial: z.number(),
    Id_Environments: z.number(),
    Id_Periodicidade: z.number(),
    Id_Users: z.number(),
    revisionPhotos: z.boolean(),
    vigIni: z.string().openapi({ description: "yyyy-MM-dd" }),
    vigFim: z.string(),
    deletedAt: z.null(),
    Environment: z.object({ id: z.number(), name: z.string() }),
    User: z.object({ id: z.number(), nome: z.string() }),
    Empresa: z.object({ ID: z.number(), NOME: z.string() }),
    Periodicidade: AgendaPeriodicity,
  })
  .openapi("AgendaDetail");
export type AgendaDetail = z.infer<typeof AgendaDetail>;

export const AgendaUpdated = AgendaDetail.extend({
  bookings: z
    .object({ inserted: z.number(), updated: z.number(), removed: z.number(), kept: z.number() })
    .openapi({ description: "What the edit did to the agenda's bookings from today on (kept: past, started …)" }),
}).openapi("AgendaUpdated");
export type AgendaUpdated = z.infer<typeof AgendaUpdated>;

export const AgendaSaved = z
  .array(z.object({ ID: z.number(), bookings: z.number().openapi({ description: "Booking rows (date × slot)" }) }))
  .openapi("AgendaSaved");
export type AgendaSaved = z.infer<typeof AgendaSaved>;

/** A person's CPF, e-mail and phone: only for callers who may read them (`mayReadPersonalData`). */
const PersonalData = {
  cpf: z.string().optional(),
  email: z.string().optional(),
  telefone: z.string().optional(),
};

const Historic = z
  .object({
    id: z.number(),
    agendamentoId: z.number(),
    tasksId: z.number(),
    revisionId: z.number().nullable(),
    userId: z.number(),
    createdAt: z.string(),
    updatedAt: z.string(),
    image: z.string().nullable(),
    observacao: z.string().nullable(),
    ocorrencia: z.string().nullable(),
    Procedure: z.object({ id: z.number(), name: z.string() }),
  })
  .openapi("Historic");

/** The spec's schedule entry (agendamento, §3): one date and slot, with its user, agenda, environment and history. */
export const Booking = z
  .object({
    id: z.number(),
    agendaId: z.number(),
    companyId: z.number().openapi({ description: "The branch (filial) of the booking" }),
    userId: z.number(),
    environmentId: z.number(),
    dataAgend: z.string().openapi({ description: "yyyy-MM-dd" }),
    slot: z.number().openapi({ description: "0 = the main cleaning, n = the nª revision" }),
    type: z.enum(["Principal", "Revisão", "Extra"]).openapi({ description: "Extra: a corrective cleaning" }),
    ocorrenciaId: z.number().nullable().openapi({ description: "The incident a corrective cleaning answers" }),
    horaIni: z.string().openapi({ description: "HH:mm" }),
    horaFim: z.string(),
    status: z.enum(["Andamento", "Completo", "Incompleto"]).nullable().openapi({ description: "null = 'A fazer'" }),
    startDate: z.string().nullable(),
    finishedAt: z.string().nullable().openapi({ description: "When it was finished or reported incomplete (ours)" }),
    viaQr: z.boolean().nullable().openapi({
      description:
        "Ours: started with the room's current QR value; false: 'Sem leitura do QR'; null: before the field app",
    }),
    envioAtrasoS: z
      .number()
      .nullable()
      .openapi({ description: "Ours: seconds a late record of the slot waited on the phone ('Enviado com atraso')" }),
    startReceivedAt: z.string().nullable().openapi({ description: "Ours: when the start reached the server (UTC)" }),
    finishReceivedAt: z.string().nullable().openapi({ description: "Ours: when the end reached the server (UTC)" }),
    viraNoite: z.boolean(),
    justificativa: z.string().nullable(),
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
    User: z
      .object({ id: z.number(), nome: z.string(), avatar: z.string().nullable(), ...PersonalData })
      .openapi({ description: "The collaborator; CPF, e-mail and phone only for callers who may read users" }),
    Agenda: z.object({
      ID: z.number(),
      ATIVO: z.boolean(),
      FINALIZADO: z.boolean(),
      DATA_FINALIZACAO: z.string().nullable(),
      Id_EmpresasFilial: z.number(),
      Id_Environments: z.number(),
      Id_Periodicidade: z.number(),
      Id_Users: z.number(),
      revisionPhotos: z.boolean(),
      vigIni: z.string(),
      vigFim: z.string(),
      deletedAt: z.null(),
      Environment: z.object({
        id: z.number(),
        name: z.string(),
        andar: z.string(),
        categoriaId: z.number(),
        setorId: z.number(),
        Categoria: z.object({ name: z.string() }),
        Setor: z.object({ name: z.string() }),
      }),
      Periodicidade: z.object({
        ID: z.number(),
        NOME: z.string(),
        DIAS_SEMANA: z.string(),
        HORA_BASE_INICIAL: z.string(),
        HORA_BASE_FINAL: z.string(),
        type: z.enum(["sem", "12X"]),
      }),
    }),
    Historic: z.array(Historic),
    Empresa: z.object({ NOME: z.string() }),
  })
  .openapi("Booking");
export type Booking = z.infer<typeof Booking>;

/**
 * The spec's user shape (§3 'Other') for the collaborator choices; companyId is the user's branch. CPF, e-mail and
 * phone only for callers who may read users (as Booking.User).
 */
export const Asg = z
  .object({
    id: z.number(),
    nome: z.string(),
    ...PersonalData,
    avatar: z.string().nullable(),
    companyId: z.number(),
    coordenador: z.number().nullable(),
    roleId: z.number().nullable(),
    filialClientId: z.number().nullable(),
  })
  .openapi("Asg");
export type Asg = z.infer<typeof Asg>;

export const agendaJson = (row: AgendaRow): AgendaDetail => ({
  ID: row.id,
  ATIVO: row.ativo,
  FINALIZADO: row.finalizado,
  DATA_FINALIZACAO: iso(row.data_finalizacao),
  Id_EmpresasFilial: row.branch_id,
  Id_Environments: row.environment_id,
  Id_Periodicidade: row.periodicity_id,
  Id_Users: row.user_id,
  revisionPhotos: row.revision_photos,
  vigIni: row.vig_ini,
  vigFim: row.vig_fim,
  deletedAt: null,
  Environment: { id: row.environment_id, name: row.environment },
  User: { id: row.user_id, nome: row.user_nome },
  Empresa: { ID: row.branch_id, NOME: row.empresa },
  Periodicidade: {
    ID: row.periodicity.id,
    NOME: row.periodicity.nome,
    ATIVO: row.periodicity.ativo,
    DIAS_SEMANA: row.periodicity.dias_semana,
    DIAS_SEMANA_2: row.periodicity.dias_semana_2,
    DIAS_MES: row.periodicity.dias_mes,
    DATAS_ANUAIS: row.periodicity.datas_anuais,
    QTD_DIAS: row.periodicity.qtd_dias,
    HORA_BASE_INICIAL: hhmm(row.periodicity.hora_base_inicial),
    HORA_BASE_FINAL: hhmm(row.periodicity.hora_base_final),
    DATA_CRIACAO: row.periodicity.created_at.toISOString(),
    type: row.periodicity.type,
    Revisoes: row.revisions.map((revision) => ({
      ID: revision.id,
      HORA_INICIAL: hhmm(revision.hora_inicial),
      HORA_FINAL: hhmm(revision.hora_final),
    })),
  },
});

export const bookingJson = (row: BookingRow, personal: boolean): Booking => ({
  id: row.id,
  agendaId: row.agenda_id,
  companyId: row.branch_id,
  userId: row.user_id,
  environmentId: row.environment_id,
  dataAgend: row.data_agend,
  slot: row.slot,
  type: cleaningType(row.slot, row.incident_id),
  ocorrenciaId: row.incident_id,
  horaIni: hhmm(row.hora_ini),
  horaFim: hhmm(row.hora_fim),
  status: row.status,
  startDate: iso(row.start_date),
  finishedAt: iso(row.finished_at),
  viaQr: row.iniciada_via_qr,
  envioAtrasoS: row.envio_atraso_s,
  startReceivedAt: iso(row.start_received_at),
  finishReceivedAt: iso(row.finish_received_at),
  viraNoite: row.vira_noite,
  justificativa: row.justificativa,
  active: row.active,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  User: {
    id: row.user_id,
    nome: row.user_nome,
    avatar: row.user_avatar,
    ...(personal ? { email: row.user_email, telefone: row.user_telefone, cpf: row.user_cpf } : {}),
  },
  Agenda: {
    ID: row.agenda_id,
    ATIVO: row.agenda_ativo,
    FINALIZADO: row.finalizado,
    DATA_FINALIZACAO: iso(row.data_finalizacao),
    Id_EmpresasFilial: row.branch_id,
    Id_Environments: row.environment_id,
    Id_Periodicidade: row.periodicity_id,
    Id_Users: row.user_id,
    revisionPhotos: row.revision_photos,
    vigIni: row.vig_ini,
    vigFim: row.vig_fim,
    deletedAt: null,
    Environment: {
      id: row.environment_id,
      name: row.environment,
      andar: row.andar,
      categoriaId: row.category_id,
      setorId: row.sector_id,
      Categoria: { name: row.categoria },
      Setor: { name: row.setor },
    },
    Periodicidade: {
      ID: row.periodicity_id,
      NOME: row.p_nome,
      DIAS_SEMANA: row.dias_semana,
      HORA_BASE_INICIAL: hhmm(row.hora_base_inicial),
      HORA_BASE_FINAL: hhmm(row.hora_base_final),
      type: row.p_type,
    },
  },
  Historic: row.historic.map((entry) => ({
    id: entry.id,
    agendamentoId: row.id,
    tasksId: entry.tasksId,
    revisionId: entry.revisionId,
    userId: entry.userId,
    createdAt: isoText(entry.createdAt),
    updatedAt: isoText(entry.updatedAt),
    image: entry.image,
    observacao: entry.observacao,
    ocorrencia: entry.ocorrencia,
    Procedure: { id: entry.tasksId, name: entry.procedure },
  })),
  Empresa: { NOME: row.empresa },
});

export const asgJson = (row: AsgRow, personal: boolean): Asg => ({
  id: row.id,
  nome: row.nome,
  ...(personal ? { cpf: row.cpf, email: row.email, telefone: row.telefone } : {}),
  avatar: row.avatar,
  companyId: row.branch_id ?? row.company_id,
  coordenador: row.coordenador,
  roleId: row.role_id,
  filialClientId: row.filial_client_id,
});

/**
 * POST /agendas/v2/saveAgenda: an array of save-agenda items (the original sends one per call); at most
 * MAX_SAVE_ITEMS, and MAX_SAVE_BOOKINGS bookings in all (checked by the service).
 */
export const SaveAgendaBody = z
  .array(SaveAgendaItem)
  .min(1, T.itemsRequired)
  .max(MAX_SAVE_ITEMS, T.itemsTooMany)
  .openapi("SaveAgendaBody");
export type SaveAgendaBody = z.input<typeof SaveAgendaBody>;

/** PUT /agendas/updateAgenda: the update payload of spec 001 §3 (api/domain/schedule-rules.ts UpdateAgenda). */
export const UpdateAgendaBody = z.object(UpdateAgenda.shape).openapi("UpdateAgendaBody");
export type UpdateAgendaBody = z.input<typeof UpdateAgendaBody>;

const scopeQuery = branchScopeQuery;

const searchQuery = {
  q: z.string().max(100).optional().openapi({ description: "Ours: search (case and accents ignored) in campos" }),
  campos: searchFieldsQuery(BOOKING_SEARCH_FIELDS, T.searchFieldsInvalid, "default: all"),
  status: z
    .enum(BOOKING_STATUS_FILTERS)
    .optional()
    .openapi({ description: "Ours: one board column (aFazer: not started)" }),
};

/** The query forms of spec 001 §7 (report, per collaborator, report fetch by 400, agenda page by 500, dashboard). */
export const BookingListParams = z.object({
  dataIni: dateField(T.dateRangeInvalid),
  dataFim: dateField(T.dateRangeInvalid),
  ...scopeQuery,
  asgId: int32.optional().openapi({ description: "Per collaborator: only this user's bookings" }),
  agendaId: int32.optional().openapi({ description: "One agenda's bookings (ours: the dashboard's detail)" }),
  id: int32.optional().openapi({ description: "One booking (ours: the remove page's look-up)" }),
  ...searchQuery,
  ...limitPageQuery,
  report: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Accepted for the original client; the rows are the same" }),
});
export type BookingListParams = z.input<typeof BookingListParams>;

/** GET agendas/v2/Agendamentos/resumo (ours): the list's filters, without paging, over at most 31 days. */
export const BookingSummaryParams = BookingListParams.omit({ limit: true, page: true, report: true });
export type BookingSummaryParams = z.input<typeof BookingSummaryParams>;

/** Per day and status, how many bookings the list would answer. */
export const BookingSummary = z
  .array(
    z.object({
      dataAgend: z.string().openapi({ description: "yyyy-MM-dd" }),
      status: z.enum(["Andamento", "Completo", "Incompleto"]).nullable().openapi({ description: "null = 'A fazer'" }),
      total: z.number(),
    }),
  )
  .openapi("BookingSummary");
export type BookingSummary = z.infer<typeof BookingSummary>;

/** The bookings' search fields; the e-mail is personal data. */
const BOOKING_SEARCH = { all: BOOKING_SEARCH_FIELDS, personal: ["email"] as const, message: T.searchFieldsInvalid };

const tags = ["Agendas"];
const forbidden = { description: "Permissão negada!", content: errorResponses[400].content };

export function agendaRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/agendas/v2/Agendamentos/company",
      tags,
      summary:
        "Bookings (one per date and slot) of a date range in scope: by company or branch, per collaborator (asgId), " +
        "searched (q, campos), one status; paged (limit, page; unpaged at most 500 rows, else 400); only active " +
        "bookings of active, not removed agendas; in day and time order",
      security: bearer,
      request: { query: BookingListParams },
      responses: {
        200: jsonResponse("The bookings", z.array(Booking)),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const { report: _report, ...query } = ctx.req.valid("query");
      const personal = mayReadPersonalData(ctx.get("user"));
      const campos = searchFieldsFor(ctx.get("user"), query.campos, BOOKING_SEARCH);
      return ctx.json(
        (await listBookings(db, ctx.get("scope"), { ...query, campos })).map((row) => bookingJson(row, personal)),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/agendas/v2/Agendamentos/resumo",
      tags,
      summary:
        "Ours: how many bookings the list would answer per day and status (the calendar's marks, the board's column " +
        "totals), with the list's filters, over at most 31 days",
      security: bearer,
      request: { query: BookingSummaryParams },
      responses: {
        200: jsonResponse("Counts per day and status", BookingSummary),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      const campos = searchFieldsFor(ctx.get("user"), query.campos, BOOKING_SEARCH);
      const rows = await summariseBookings(db, ctx.get("scope"), { ...query, campos });
      return ctx.json(
        rows.map((row) => ({ dataAgend: row.data_agend, status: row.status, total: row.total })),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/agendas/v2/Agendamentos/listaAsg",
      tags,
      summary: "The collaborators an agenda may be for (active ASGs) in scope, optionally of one branch, by name",
      security: bearer,
      request: { query: z.object(scopeQuery) },
      responses: { 200: jsonResponse("The collaborators", z.array(Asg)), 404: errorResponses[404] },
    }),
    async (ctx) => {
      const personal = mayReadPersonalData(ctx.get("user"));
      const rows = await listSchedulableUsers(db, ctx.get("scope"), ctx.req.valid("query"));
      return ctx.json(
        rows.map((row) => asgJson(row, personal)),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/agendas/{id}",
      tags,
      summary: "One agenda in scope with its periodicity and revisions (what the edit modal starts from)",
      security: bearer,
      request: { params: z.object({ id: int32 }) },
      responses: { 200: jsonResponse("The agenda", AgendaDetail), 404: errorResponses[404] },
    }),
    async (ctx) => ctx.json(agendaJson(await findAgenda(db, ctx.get("scope"), ctx.req.valid("param").id)), 200),
  );

  const requireWrite = requirePermission("manageRegisters");
  app.post("/agendas/v2/saveAgenda", requireWrite);
  app.put("/agendas/updateAgenda", requireWrite);
  app.delete("/agendas/Agendamentos/*", requireWrite);

  app.openapi(
    createRoute({
      method: "post",
      path: "/agendas/v2/saveAgenda",
      tags,
      summary:
        "Create agendas (each item: an agenda, its periodicity and revisions, and its bookings from its start to its " +
        `end); every item is checked before anything is written; 400 with the rule's message (spec 001 §5), or past ` +
        `${MAX_SAVE_ITEMS} items or ${MAX_SAVE_BOOKINGS} bookings in all`,
      security: bearer,
      request: { body: jsonBody(SaveAgendaBody) },
      responses: {
        201: jsonResponse("Created", AgendaSaved),
        400: errorResponses[400],
        403: forbidden,
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const created = await createAgendas(db, ctx.get("scope"), ctx.req.valid("json"));
      return ctx.json(
        created.map((agenda) => ({ ID: agenda.id, bookings: agenda.bookings })),
        201,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "put",
      path: "/agendas/updateAgenda",
      tags,
      summary:
        "Edit an agenda (ATIVO, environment, collaborator, periodicity, times, validity): its open bookings from today " +
        "on follow; past, started, with-history and deleted ones never change",
      security: bearer,
      request: { body: jsonBody(UpdateAgendaBody) },
      responses: {
        200: jsonResponse("Saved", AgendaUpdated),
        400: errorResponses[400],
        403: forbidden,
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const scope = ctx.get("scope");
      const result = await updateAgenda(db, scope, ctx.req.valid("json"));
      const { id: _id, ...bookings } = result;
      return ctx.json({ ...agendaJson(await findAgenda(db, scope, result.id)), bookings }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "delete",
      path: "/agendas/Agendamentos/{id}",
      tags,
      summary: "Delete (hide) one booking: it leaves every list; its row and history stay, and edits never restore it",
      security: bearer,
      request: { params: z.object({ id: int32 }) },
      responses: { 204: { description: "Deleted" }, 403: forbidden, 404: errorResponses[404] },
    }),
    async (ctx) => {
      await deleteBooking(db, ctx.get("scope"), ctx.req.valid("param").id);
      return ctx.body(null, 204);
    },
  );

  return app;
}
