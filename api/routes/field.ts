import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { cleaningType } from "../domain/reports.ts";
import { bearer, errorResponses, hhmm, int32, iso, jsonResponse } from "../lib/openapi.ts";
import {
  fieldDay,
  fieldRoom,
  FIELD_STATES,
  MAX_FIELD_SLOTS,
  type FieldSlot as FieldSlotRow,
  type FieldState,
} from "../services/field-day.ts";

import { ExecutionSlot, executorOf, slotJson } from "./execution.ts";

/**
 * The field app's reads (docs/field-app.md 'Calls'): 'Hoje' and a room opened from its QR code. HTTP only, over
 * api/services/field-day.ts; the writes are the execution calls (api/routes/execution.ts). Both act on the signed-in
 * user's own slots; a field session may make these calls (api/auth/middleware.ts FIELD_CALLS), and so may a
 * back-office one.
 */

const FieldEnvironment = z.object({
  id: z.number(),
  name: z.string(),
  andar: z.string(),
  setor: z.string(),
  categoria: z.string(),
});

export const FieldSlot = z
  .object({
    id: z.number().openapi({ description: "The booking (agendamento): the id the execution calls take" }),
    environment: FieldEnvironment,
    dataAgend: z.string().openapi({ description: "yyyy-MM-dd (business date, America/Fortaleza)" }),
    horaIni: z.string().openapi({ description: "HH:mm" }),
    horaFim: z.string(),
    type: z.enum(["Principal", "Revisão", "Extra"]).openapi({ description: "Extra: a corrective cleaning" }),
    ocorrenciaId: z.number().nullable().openapi({ description: "The incident a corrective cleaning answers" }),
    state: z.enum(FIELD_STATES).openapi({
      description:
        "A fazer: not started, before its start plus the company's late tolerance; Atrasada: not started after " +
        "that; Em andamento; Concluída; Não concluída (reported incomplete)",
    }),
    status: z.enum(["Andamento", "Completo", "Incompleto"]).nullable().openapi({ description: "null = not started" }),
    startDate: z.string().nullable().openapi({ description: "When it was started (UTC)" }),
    finishedAt: z.string().nullable().openapi({ description: "When it was finished or reported incomplete (UTC)" }),
  })
  .openapi("FieldSlot");
export type FieldSlot = z.infer<typeof FieldSlot>;

const slots = (description: string) =>
  z.array(FieldSlot).openapi({ description: `${description}; at most ${MAX_FIELD_SLOTS}, in time order` });

export const FieldDay = z
  .object({
    date: z.string().openapi({ description: "Today, yyyy-MM-dd (America/Fortaleza)" }),
    counts: z
      .object({
        aFazer: z.number(),
        atrasada: z.number(),
        emAndamento: z.number(),
        concluida: z.number(),
        naoConcluida: z.number(),
      })
      .openapi({ description: "Today's slots per state" }),
    nextId: z
      .number()
      .nullable()
      .openapi({ description: "The slot to do next: the first under way, else the first not started; null: none" }),
    today: slots("Today's slots"),
    yesterday: slots("Yesterday's slots still open (not started or under way: they may still be done)"),
    tomorrow: slots("Tomorrow's slots"),
  })
  .openapi("FieldDay");
export type FieldDay = z.infer<typeof FieldDay>;

export const FieldRoom = z
  .object({
    environment: FieldEnvironment,
    procedures: z
      .array(z.object({ id: z.number(), name: z.string(), mandatory: z.boolean() }))
      .openapi({ description: "Mandatory first, then by name" }),
    revisionPhotos: z.boolean().openapi({ description: "One of the caller's agendas here: one photo per revision" }),
    qr: z
      .enum(["valido", "substituido", "invalido"])
      .nullable()
      .openapi({
        description:
          "The qr value given: the room's printed code (valido), the code before its reissue (substituido), " +
          "neither (invalido); null when none was given",
      }),
    slots: z.array(ExecutionSlot).openapi({ description: "The caller's slots of today in this room, in time order" }),
    othersToday: z.number().openapi({ description: "Other people's slots in this room today (no names)" }),
  })
  .openapi("FieldRoom");
export type FieldRoom = z.infer<typeof FieldRoom>;

export const FieldRoomQuery = z.object({
  qr: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: "The value the room's QR code carries (docs/field-app.md 'Proof flags')" }),
});

const COUNT_KEYS: Record<FieldState, keyof FieldDay["counts"]> = {
  "A fazer": "aFazer",
  Atrasada: "atrasada",
  "Em andamento": "emAndamento",
  Concluída: "concluida",
  "Não concluída": "naoConcluida",
};

const fieldSlotJson = ({ slot, environment, state }: FieldSlotRow): FieldSlot => ({
  id: slot.id,
  environment,
  dataAgend: slot.data_agend,
  horaIni: hhmm(slot.hora_ini),
  horaFim: hhmm(slot.hora_fim),
  type: cleaningType(slot.slot, slot.incident_id),
  ocorrenciaId: slot.incident_id,
  state,
  status: slot.status,
  startDate: iso(slot.start_date),
  finishedAt: iso(slot.finished_at),
});

const tags = ["Execução (app)"];

export function fieldRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/execution/today",
      tags,
      summary:
        "'Hoje': the signed-in collaborator's slots of today with their states and counts, yesterday's still open, " +
        "tomorrow's",
      security: bearer,
      responses: { 200: jsonResponse("The day", FieldDay) },
    }),
    async (ctx) => {
      const day = await fieldDay(db, executorOf(ctx.get("user")), new Date());
      const counts = Object.fromEntries(
        Object.entries(day.counts).map(([state, n]) => [COUNT_KEYS[state as FieldState], n]),
      ) as FieldDay["counts"];
      return ctx.json(
        {
          date: day.date,
          counts,
          nextId: day.nextId,
          today: day.today.map(fieldSlotJson),
          yesterday: day.yesterday.map(fieldSlotJson),
          tomorrow: day.tomorrow.map(fieldSlotJson),
        },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/execution/environments/{id}",
      tags,
      summary:
        "A room opened on the phone (from its QR code): procedures, the caller's slots of today there, the QR " +
        "value's check; 404 outside the caller's company or branch",
      security: bearer,
      request: { params: z.object({ id: int32.openapi({ description: "The environment" }) }), query: FieldRoomQuery },
      responses: { 200: jsonResponse("The room", FieldRoom), 404: errorResponses[404] },
    }),
    async (ctx) => {
      const qr = ctx.req.valid("query").qr;
      const room = await fieldRoom(
        db,
        ctx.get("scope"),
        executorOf(ctx.get("user")),
        ctx.req.valid("param").id,
        qr ? qr : null,
        new Date(),
      );
      return ctx.json({ ...room, slots: room.slots.map(slotJson) }, 200);
    },
  );

  return app;
}
