import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { cleaningType } from "../domain/reports.ts";
import { businessToday } from "../domain/schedule-expansion.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { SCHEDULE_TEXTS as T } from "../domain/schedule-texts.ts";
import { ApiError } from "../lib/errors.ts";
import { bearer, errorResponses, hhmm, int32, iso, isoText, jsonBody, jsonResponse } from "../lib/openapi.ts";
import {
  EXECUTION_TEXTS as X,
  findMySlot,
  finishSlot,
  listMyBookings,
  recordProcedure,
  reportIncomplete,
  startSlot,
  type DoneRow,
  type Executor,
  type MyBooking,
  type SlotRow,
} from "../services/execution.ts";

/**
 * The execution client's calls (DESIGN.md; not in the spec): the cleaning staff's phone app, signed in through
 * POST /sessions (which admits ASGs; only the web app refuses them). HTTP only, over api/services/execution.ts;
 * docs/scheduling.md 'History and the execution API' has the contract. Every call acts on the signed-in user's own
 * bookings: anyone else's booking is 404.
 */

export const ExecutionDone = z
  .object({
    id: z.number().openapi({ description: "The history row" }),
    procedureId: z.number(),
    procedure: z.string(),
    revisionId: z.number().nullable(),
    image: z.string().nullable().openapi({ description: "The photo's file name in the photos store" }),
    observacao: z.string().nullable(),
    createdAt: z.string().openapi({ description: "UTC" }),
  })
  .openapi("ExecutionDone");
export type ExecutionDone = z.infer<typeof ExecutionDone>;

export const ExecutionSlot = z
  .object({
    id: z.number().openapi({ description: "The booking (agendamento) of this slot: the id the calls below take" }),
    agendaId: z.number(),
    environmentId: z.number(),
    dataAgend: z.string().openapi({ description: "yyyy-MM-dd (business date, America/Fortaleza)" }),
    slot: z.number().openapi({ description: "0 = the main cleaning, n = the nª revision" }),
    type: z.enum(["Principal", "Revisão", "Extra"]).openapi({ description: "Extra: a corrective cleaning" }),
    ocorrenciaId: z
      .number()
      .nullable()
      .openapi({ description: "The incident a corrective cleaning answers (GET /execution/incidents)" }),
    horaIni: z.string().openapi({ description: "HH:mm" }),
    horaFim: z.string(),
    status: z.enum(["Andamento", "Completo", "Incompleto"]).nullable().openapi({ description: "null = 'A fazer'" }),
    startDate: z.string().nullable().openapi({ description: "When it was started (UTC)" }),
    finishedAt: z.string().nullable().openapi({ description: "When it was finished or reported incomplete (UTC)" }),
    justificativa: z.string().nullable().openapi({ description: "The reason given when reported incomplete" }),
    done: z.array(ExecutionDone),
  })
  .openapi("ExecutionSlot");
export type ExecutionSlot = z.infer<typeof ExecutionSlot>;

export const ExecutionBooking = z
  .object({
    agendaId: z.number(),
    environment: z.object({
      id: z.number(),
      name: z.string(),
      andar: z.string(),
      categoria: z.string(),
      setor: z.string(),
    }),
    revisionPhotos: z.boolean().openapi({ description: "'As Revisões serão com foto única?'" }),
    procedures: z.array(z.object({ id: z.number(), name: z.string(), mandatory: z.boolean() })),
    slots: z.array(ExecutionSlot),
  })
  .openapi("ExecutionBooking");
export type ExecutionBooking = z.infer<typeof ExecutionBooking>;

export const ExecutionDay = z
  .object({ date: z.string().openapi({ description: "yyyy-MM-dd" }), bookings: z.array(ExecutionBooking) })
  .openapi("ExecutionDay");
export type ExecutionDay = z.infer<typeof ExecutionDay>;

const doneJson = (row: DoneRow): ExecutionDone => ({
  id: row.id,
  procedureId: row.procedureId,
  procedure: row.procedure,
  revisionId: row.revisionId,
  image: row.image,
  observacao: row.observacao,
  createdAt: isoText(row.createdAt),
});

export const slotJson = (row: SlotRow): ExecutionSlot => ({
  id: row.id,
  agendaId: row.agenda_id,
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
  justificativa: row.justificativa,
  done: row.done.map(doneJson),
});

const bookingJson = (booking: MyBooking): ExecutionBooking => ({
  agendaId: booking.agendaId,
  environment: booking.environment,
  revisionPhotos: booking.revisionPhotos,
  procedures: booking.procedures,
  slots: booking.slots.map(slotJson),
});

export const ExecutionDayParams = z.object({
  date: z.optional(dateField(T.dateInvalid)).openapi({ description: "yyyy-MM-dd; default today (Fortaleza)" }),
});
export type ExecutionDayParams = z.input<typeof ExecutionDayParams>;

export const IncompleteBody = z
  .object({ justificativa: z.string({ error: X.reasonRequired }).openapi({ description: "The reason (1-500)" }) })
  .openapi("IncompleteBody");
export type IncompleteBody = z.input<typeof IncompleteBody>;

const tags = ["Execução (app)"];
const id = z.object({ id: int32.openapi({ description: "The booking (slot)" }) });
const conflict = { description: "Not in a state that allows it", content: errorResponses[400].content };
const slotAnswers = {
  200: jsonResponse("The slot after the change", ExecutionSlot),
  400: errorResponses[400],
  404: errorResponses[404],
  409: conflict,
};

export const executorOf = (user: { id: number; companyId: number }): Executor => ({
  userId: user.id,
  companyId: user.companyId,
});

export function executionRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/execution/bookings",
      tags,
      summary:
        "The signed-in collaborator's bookings of a day, by agenda: environment, procedures, slots with what was done",
      security: bearer,
      request: { query: ExecutionDayParams },
      responses: { 200: jsonResponse("The day", ExecutionDay), 400: errorResponses[400] },
    }),
    async (ctx) => {
      const date = ctx.req.valid("query").date ?? businessToday();
      const bookings = await listMyBookings(db, executorOf(ctx.get("user")), date);
      return ctx.json({ date, bookings: bookings.map(bookingJson) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/execution/bookings/{id}",
      tags,
      summary: "One slot of the signed-in collaborator, with what was done in it",
      security: bearer,
      request: { params: id },
      responses: { 200: jsonResponse("The slot", ExecutionSlot), 404: errorResponses[404] },
    }),
    async (ctx) =>
      ctx.json(slotJson(await findMySlot(db, executorOf(ctx.get("user")), ctx.req.valid("param").id)), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/start",
      tags,
      summary: "Start a slot ('A fazer' → 'Andamento'); 409 when started already, removed, inactive, or a later day",
      security: bearer,
      request: { params: id },
      responses: slotAnswers,
    }),
    async (ctx) =>
      ctx.json(slotJson(await startSlot(db, executorOf(ctx.get("user")), ctx.req.valid("param").id, new Date())), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/procedures",
      tags,
      summary:
        "Record a procedure done in a started slot (multipart: procedureId, observacao, photo: JPEG, PNG, GIF or " +
        "WebP, 2 MB and 40 megapixels at most, stored as an upright JPEG without metadata)",
      security: bearer,
      request: {
        params: id,
        body: {
          content: {
            "multipart/form-data": {
              schema: z.object({
                procedureId: z.string().optional().openapi({ description: "One of the environment's procedures" }),
                observacao: z.string().optional(),
                photo: z.any().optional().openapi({ type: "string", format: "binary" }),
              }),
            },
          },
          required: true,
        },
      },
      responses: {
        201: jsonResponse("Recorded", ExecutionDone),
        400: errorResponses[400],
        404: errorResponses[404],
        409: conflict,
        413: errorResponses[400],
        415: errorResponses[400],
      },
    }),
    async (ctx) => {
      const bookingId = ctx.req.valid("param").id;
      const form = await ctx.req.formData();
      const procedureId = int32.safeParse(String(form.get("procedureId") ?? "").trim() || undefined);
      if (!procedureId.success || procedureId.data < 1)
        throw new ApiError(400, X.procedureRequired, { procedureId: [X.procedureRequired] });
      const observacao = form.get("observacao");
      const field = form.get("photo");
      if (field !== null && !(field instanceof File)) throw new ApiError(415, X.photoType);
      // A form posted without choosing a file sends an empty part: no photo, not a bad one.
      const photo = field && field.size > 0 ? field : null;
      const done = await recordProcedure(
        { db, storage: deps.storage },
        executorOf(ctx.get("user")),
        bookingId,
        {
          procedureId: procedureId.data,
          observacao: typeof observacao === "string" ? observacao : null,
          photo: photo ? { bytes: new Uint8Array(await photo.arrayBuffer()) } : null,
        },
        new Date(),
      );
      return ctx.json(doneJson(done), 201);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/finish",
      tags,
      summary: "Finish a started slot ('Andamento' → 'Completo'); 409 when not started or already closed",
      security: bearer,
      request: { params: id },
      responses: slotAnswers,
    }),
    async (ctx) =>
      ctx.json(slotJson(await finishSlot(db, executorOf(ctx.get("user")), ctx.req.valid("param").id, new Date())), 200),
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/incomplete",
      tags,
      summary: "Report a slot incomplete with a reason ('A fazer' or 'Andamento' → 'Incompleto')",
      security: bearer,
      request: { params: id, body: jsonBody(IncompleteBody) },
      responses: slotAnswers,
    }),
    async (ctx) =>
      ctx.json(
        slotJson(
          await reportIncomplete(
            db,
            executorOf(ctx.get("user")),
            ctx.req.valid("param").id,
            ctx.req.valid("json").justificativa,
            new Date(),
          ),
        ),
        200,
      ),
  );

  return app;
}
