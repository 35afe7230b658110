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
  recordRemaining,
  reportIncomplete,
  startSlot,
  type DoneRow,
  type Executor,
  type MyBooking,
  type SlotRow,
} from "../services/execution.ts";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_TEXTS, idempotent, REPLAYED_HEADER } from "../services/idempotency.ts";

/**
 * The execution client's calls (DESIGN.md; not in the spec): the cleaning staff's phone app, signed in through
 * POST /sessions (which admits ASGs; only the web app refuses them). HTTP only, over api/services/execution.ts;
 * docs/scheduling.md 'History and the execution API' has the contract. Every call acts on the signed-in user's own
 * bookings: anyone else's booking is 404. The writes take the phone's instant (`feitoEm`) and an Idempotency-Key
 * (docs/field-app.md 'Instants', 'Idempotency'): the field app queues them offline and sends them again when unsure.
 */

export const ExecutionDone = z
  .object({
    id: z.number().openapi({ description: "The history row" }),
    procedureId: z.number(),
    procedure: z.string(),
    revisionId: z.number().nullable(),
    image: z.string().nullable().openapi({ description: "The photo's file name in the photos store" }),
    observacao: z.string().nullable(),
    createdAt: z.string().openapi({ description: "When it was done (the phone's feitoEm, UTC)" }),
    receivedAt: z
      .string()
      .nullable()
      .openapi({ description: "When the server received it (UTC); null for records before the field app" }),
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
    viaQr: z
      .boolean()
      .nullable()
      .openapi({
        description:
          "Started with the room's current QR value (docs/field-app.md 'Proof flags'); false: without it, or with a " +
          "wrong or retired one; null: started before the field app",
      }),
    startReceivedAt: z.string().nullable().openapi({ description: "When the server received the start (UTC)" }),
    finishReceivedAt: z
      .string()
      .nullable()
      .openapi({ description: "When the server received the finish or the report (UTC)" }),
    envioAtrasoS: z.number().nullable().openapi({
      description: "The longest wait between a record done and received, in seconds, when 5 minutes or more",
    }),
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

/** JSON aggregation in SQL hands timestamps back as text ('…+00:00'): answered as every instant is, with Z. */
const utc = (value: string | Date) => new Date(isoText(value)).toISOString();

const doneJson = (row: DoneRow): ExecutionDone => ({
  id: row.id,
  procedureId: row.procedureId,
  procedure: row.procedure,
  revisionId: row.revisionId,
  image: row.image,
  observacao: row.observacao,
  createdAt: utc(row.createdAt),
  receivedAt: row.receivedAt === null ? null : utc(row.receivedAt),
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
  viaQr: row.iniciada_via_qr,
  startReceivedAt: iso(row.start_received_at),
  finishReceivedAt: iso(row.finish_received_at),
  envioAtrasoS: row.envio_atraso_s,
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

export const FEITO_EM_INVALID =
  "Informe quando foi feito (feitoEm) como data e hora ISO 8601 com fuso, por exemplo 2025-03-10T08:15:00-03:00.";
/** The phone's instant of a record: ISO 8601 with Z or an offset (docs/field-app.md 'Instants'); absent: now. */
const feitoEm = z.iso
  .datetime({ offset: true, error: FEITO_EM_INVALID })
  .optional()
  .openapi({
    description:
      "When it was done, on the phone (ISO 8601 with Z or offset). Absent: now; later than now: now; " +
      "more than 7 days ago: 422",
    example: "2025-03-10T08:15:00-03:00",
  });
const instantOf = (text: string | undefined) => (text ? new Date(text) : null);

export const InstantBody = z.object({ feitoEm }).openapi("ExecutionInstant");
export type InstantBody = z.input<typeof InstantBody>;

export const StartBody = z
  .object({
    feitoEm,
    qr: z
      .string()
      .max(100)
      .optional()
      .openapi({ description: "The QR value the room's page was opened with (docs/field-app.md 'Proof flags')" }),
  })
  .openapi("ExecutionStart");
export type StartBody = z.input<typeof StartBody>;

export const IncompleteBody = z
  .object({
    justificativa: z.string({ error: X.reasonRequired }).openapi({ description: "The reason (1-500)" }),
    feitoEm,
  })
  .openapi("IncompleteBody");
export type IncompleteBody = z.input<typeof IncompleteBody>;

/** An optional JSON body: the calls without one (the back office's, older clients) keep working. */
const optionalJson = <T extends z.ZodType>(schema: T) => ({ ...jsonBody(schema), required: false });

const tags = ["Execução (app)"];
const id = z.object({ id: int32.openapi({ description: "The booking (slot)" }) });
const idempotencyAnswers = {
  409: {
    description:
      "Not in a state that allows it; or the first request with this Idempotency-Key is still being answered " +
      "(Retry-After)",
    headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" as const, minimum: 1 } } },
    content: errorResponses[400].content,
  },
  422: {
    description: `This Idempotency-Key was used for another request ('${IDEMPOTENCY_TEXTS.otherRequest}'); or the record was done more than 7 days ago ('${X.tooOld}')`,
    content: errorResponses[400].content,
  },
  429: errorResponses[429],
};
const slotAnswers = {
  200: jsonResponse("The slot after the change", ExecutionSlot),
  400: errorResponses[400],
  404: errorResponses[404],
  ...idempotencyAnswers,
};
/** The header, documented; read and checked by the idempotent middleware (its 400 in Portuguese). */
const idempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .optional()
    .openapi({
      description:
        "IETF httpapi draft 'The Idempotency-Key HTTP Header Field': 1-100 of A-Z a-z 0-9 _ - : . (bare or in " +
        `double quotes). The same key and request again answer the first answer again, with ${REPLAYED_HEADER}: ` +
        "true, recording nothing (docs/field-app.md 'Idempotency')",
    }),
});

export const executorOf = (user: { id: number; companyId: number }): Executor => ({
  userId: user.id,
  companyId: user.companyId,
});

export function executionRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();
  const once = [idempotent(db)];

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
      summary:
        "Start a slot ('A fazer' → 'Andamento'); 409 when started already, removed, inactive, or done before its day",
      security: bearer,
      middleware: once,
      request: { params: id, headers: idempotencyHeaders, body: optionalJson(StartBody) },
      responses: slotAnswers,
    }),
    async (ctx) => {
      const body = ctx.req.valid("json");
      const slot = await startSlot(db, executorOf(ctx.get("user")), ctx.req.valid("param").id, new Date(), {
        feitoEm: instantOf(body.feitoEm),
        qr: body.qr ?? null,
      });
      return ctx.json(slotJson(slot), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/procedures",
      tags,
      summary:
        "Record a procedure done in a started slot (multipart: procedureId, observacao, photo: JPEG, PNG, GIF or " +
        "WebP, 2 MB and 40 megapixels at most, stored as an upright JPEG without metadata; feitoEm)",
      security: bearer,
      middleware: once,
      request: {
        params: id,
        headers: idempotencyHeaders,
        body: {
          content: {
            "multipart/form-data": {
              schema: z.object({
                procedureId: z
                  .string()
                  .optional()
                  .openapi({
                    description:
                      "One of the environment's procedures (another one: 400; one the caller may not read, of " +
                      "another company or, for field staff, another branch: 404)",
                  }),
                observacao: z.string().optional(),
                photo: z.any().optional().openapi({ type: "string", format: "binary" }),
                feitoEm: z
                  .string()
                  .optional()
                  .openapi({ description: "When it was done (as the JSON calls' feitoEm)" }),
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
        ...idempotencyAnswers,
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
      const instant = feitoEm.safeParse(String(form.get("feitoEm") ?? "").trim() || undefined);
      if (!instant.success) throw new ApiError(400, FEITO_EM_INVALID, { feitoEm: [FEITO_EM_INVALID] });
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
        { feitoEm: instantOf(instant.data), scope: ctx.get("scope") },
      );
      return ctx.json(doneJson(done), 201);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/procedures/remaining",
      tags,
      summary:
        "'Tudo feito': record every procedure of the room not recorded yet in this started slot (no photo, no note); " +
        "answers the slot; the same refusals as recording one",
      security: bearer,
      middleware: once,
      request: { params: id, headers: idempotencyHeaders, body: optionalJson(InstantBody) },
      responses: slotAnswers,
    }),
    async (ctx) => {
      const slot = await recordRemaining(db, executorOf(ctx.get("user")), ctx.req.valid("param").id, new Date(), {
        feitoEm: instantOf(ctx.req.valid("json").feitoEm),
      });
      return ctx.json(slotJson(slot), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/finish",
      tags,
      summary: "Finish a started slot ('Andamento' → 'Completo'); 409 when not started or already closed",
      security: bearer,
      middleware: once,
      request: { params: id, headers: idempotencyHeaders, body: optionalJson(InstantBody) },
      responses: slotAnswers,
    }),
    async (ctx) => {
      const slot = await finishSlot(db, executorOf(ctx.get("user")), ctx.req.valid("param").id, new Date(), {
        feitoEm: instantOf(ctx.req.valid("json").feitoEm),
      });
      return ctx.json(slotJson(slot), 200);
    },
  );

  app.openapi(
    createRoute({
      method: "post",
      path: "/execution/bookings/{id}/incomplete",
      tags,
      summary: "Report a slot incomplete with a reason ('A fazer' or 'Andamento' → 'Incompleto')",
      security: bearer,
      middleware: once,
      request: { params: id, headers: idempotencyHeaders, body: jsonBody(IncompleteBody) },
      responses: slotAnswers,
    }),
    async (ctx) => {
      const body = ctx.req.valid("json");
      const slot = await reportIncomplete(
        db,
        executorOf(ctx.get("user")),
        ctx.req.valid("param").id,
        body.justificativa,
        new Date(),
        { feitoEm: instantOf(body.feitoEm) },
      );
      return ctx.json(slotJson(slot), 200);
    },
  );

  return app;
}
