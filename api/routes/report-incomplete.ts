import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";

import type { ApiDeps, ApiEnv } from "../context.ts";
import { INCOMPLETE_SEARCH_FIELDS, INCOMPLETE_TEXTS } from "../domain/incomplete-tasks.ts";
import { REPORT_TEXTS } from "../domain/reports.ts";
import { dateField } from "../domain/schedule-rules.ts";
import { ListQuery } from "../lib/list-query.ts";
import { bearer, branchScopeQuery, errorResponses, int32, jsonResponse } from "../lib/openapi.ts";
import { mayReadPersonalData } from "../lib/personal-data.ts";
import {
  incompleteProcedures,
  procedureHistory,
  roomIncompleteSlots,
  type IncompleteTaskRow,
} from "../services/reports/incomplete-tasks.ts";

import { checkPeriod } from "./reports.ts";

/**
 * The incomplete tasks report's calls (ours, spec 001 §2.11; issue 24 §1; docs/incomplete-tasks.md): the procedure
 * grid, one procedure's history, one room's incomplete slots. Scoped like every report (tenant, branch, client
 * branch, field staff's own work), the period checked as the page checks it (§5), every answer one page.
 */

export const IncompleteParams = ListQuery.extend({
  dataIni: dateField(REPORT_TEXTS.invalidPeriod),
  dataFim: dateField(REPORT_TEXTS.invalidPeriod),
  ...branchScopeQuery,
  campo: z
    .enum(INCOMPLETE_SEARCH_FIELDS, { message: REPORT_TEXTS.searchFieldsInvalid })
    .optional()
    .openapi({ description: "Where q searches: colaborador, ambiente or tarefa (default)" }),
  anteriores: z
    .enum(["0", "1"])
    .optional()
    .openapi({ description: "1: the old system's rows of the period too ('Mostrar dados anteriores à Agosto/2022')" }),
});
const busca = z.string().max(200).optional().openapi({ description: "The dialog's own search" });

const page = <T extends z.ZodTypeAny>(item: T, name: string) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), size: z.number() }).openapi(name);

const IncompleteProcedure = z
  .object({ nome: z.string(), tarefas: z.number().openapi({ description: "Incomplete tasks of that name" }) })
  .openapi("IncompleteProcedure");

const IncompleteTask = z
  .object({
    agendamentoId: z.number(),
    data: z.string().openapi({ description: "Scheduled day, yyyy-MM-dd" }),
    procedimento: z.string(),
    inicio: z.string().nullable().openapi({ description: "When the slot was started (ISO instant)" }),
    fim: z.string().nullable().openapi({ description: "When it was closed as 'Incompleto' (ISO instant)" }),
    observacao: z.string().nullable().openapi({ description: "The reason the collaborator gave" }),
    ambiente: z.object({ id: z.number(), nome: z.string() }),
    colaborador: z.object({
      id: z.number(),
      nome: z.string(),
      avatar: z.string().nullable(),
      cpf: z.string().optional(),
      email: z.string().optional(),
      telefone: z.string().optional(),
    }),
  })
  .openapi("IncompleteTask");

const RoomIncompleteSlot = z
  .object({
    agendamentoId: z.number(),
    data: z.string(),
    colaborador: z.object({ id: z.number(), nome: z.string(), avatar: z.string().nullable() }),
    motivo: z.string().nullable(),
    tarefas: z.array(z.object({ nome: z.string(), feita: z.boolean() })),
  })
  .openapi("RoomIncompleteSlot");

/** A task as the caller may read it: CPF, e-mail and phone only for those who may read users (issue 22 item 4). */
const taskJson = (row: IncompleteTaskRow, personal: boolean): z.infer<typeof IncompleteTask> => {
  const { bookingId, colaborador, ...rest } = row;
  const { cpf, email, telefone, ...open } = colaborador;
  return {
    agendamentoId: bookingId,
    ...rest,
    colaborador: personal ? { ...open, cpf, email, telefone } : open,
  };
};

export const IncompleteProcedurePage = page(IncompleteProcedure, "IncompleteProcedurePage");
export const IncompleteTaskPage = page(IncompleteTask, "IncompleteTaskPage");
export const RoomIncompleteSlotPage = z
  .object({
    ambiente: z.string().openapi({ description: "The room's name" }),
    items: z.array(RoomIncompleteSlot),
    total: z.number(),
    page: z.number(),
    size: z.number(),
  })
  .openapi("RoomIncompleteSlotPage");
export const ProcedureHistoryParams = IncompleteParams.extend({
  nome: z.string().trim().min(1, INCOMPLETE_TEXTS.procedureMissing).max(200),
  busca,
});
export const RoomIncompleteParams = IncompleteParams.omit({ campo: true, anteriores: true }).extend({ busca });
export type IncompleteParams = z.input<typeof IncompleteParams>;
export type ProcedureHistoryParams = z.input<typeof ProcedureHistoryParams>;
export type RoomIncompleteParams = z.input<typeof RoomIncompleteParams>;

const tags = ["Relatórios"];

export function incompleteTaskRoutes(deps: ApiDeps) {
  const { db } = deps.database;
  const app = new OpenAPIHono<ApiEnv>();

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/tarefas-incompletas",
      tags,
      summary:
        "Ours (spec 001 §2.11): the distinct names of the procedures left undone in slots closed as 'Incompleto' " +
        "in the period and scope, with their counts; searched (q in campo), by name, paged",
      security: bearer,
      request: { query: IncompleteParams },
      responses: {
        200: jsonResponse("One page of procedure names", IncompleteProcedurePage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const { rows, ...rest } = await incompleteProcedures(db, ctx.get("scope"), {
        ...query,
        anteriores: query.anteriores === "1",
      });
      return ctx.json({ items: rows, ...rest }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/tarefas-incompletas/procedimento",
      tags,
      summary:
        "Ours ('Histórico do Procedimento', spec 001 §2.11): the incomplete tasks of one procedure name, newest " +
        "first, with the slot's start, end and reason, the room and the collaborator (CPF, e-mail and phone only " +
        "for callers who may read users); the list's search and the dialog's (busca), paged",
      security: bearer,
      request: {
        query: ProcedureHistoryParams,
      },
      responses: {
        200: jsonResponse("One page of incomplete tasks", IncompleteTaskPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const personal = mayReadPersonalData(ctx.get("user"));
      const { rows, ...rest } = await procedureHistory(db, ctx.get("scope"), {
        ...query,
        anteriores: query.anteriores === "1",
      });
      return ctx.json({ items: rows.map((row) => taskJson(row, personal)), ...rest }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/relatorios/tarefas-incompletas/ambiente/{id}",
      tags,
      summary:
        "Ours ('Tarefas Incompletas de {room}', spec 001 §2.11): the room's slots closed as 'Incompleto' in the " +
        "period, newest first, each with the collaborator, the reason and every procedure done or not; searched " +
        "(busca) in the name, the date (dd/MM/yyyy) and the reason; paged. 404 for a room out of scope",
      security: bearer,
      request: {
        params: z.object({ id: int32 }),
        query: RoomIncompleteParams,
      },
      responses: {
        200: jsonResponse("One page of slots", RoomIncompleteSlotPage),
        400: errorResponses[400],
        404: errorResponses[404],
      },
    }),
    async (ctx) => {
      const query = ctx.req.valid("query");
      checkPeriod(query);
      const { environment, rows, ...rest } = await roomIncompleteSlots(db, ctx.get("scope"), {
        ...query,
        q: undefined,
        environmentId: ctx.req.valid("param").id,
      });
      return ctx.json(
        {
          ambiente: environment,
          items: rows.map(({ bookingId, ...row }) => ({ agendamentoId: bookingId, ...row })),
          ...rest,
        },
        200,
      );
    },
  );

  return app;
}
