import type { z } from "@hono/zod-openapi";

import {
  IncompleteProcedurePage,
  IncompleteTaskPage,
  RoomIncompleteSlotPage,
  type IncompleteParams,
  type ProcedureHistoryParams,
  type RoomIncompleteParams,
} from "../../api/routes/report-incomplete";

import { callApi, type SignedInCaller } from "~/api.server";

/** The incomplete tasks report's calls of the REST API (docs/incomplete-tasks.md), for one signed-in user. */
export type IncompleteTask = z.infer<typeof IncompleteTaskPage>["items"][number];

type Query = Record<string, string | number | undefined>;

/** One page of the procedure names (GET /relatorios/tarefas-incompletas). */
export function incompleteProceduresPage(api: SignedInCaller, query: IncompleteParams) {
  return callApi(api, "/relatorios/tarefas-incompletas", { query: query as Query, schema: IncompleteProcedurePage });
}

/** One page of a procedure's incomplete tasks (GET /relatorios/tarefas-incompletas/procedimento). */
export function procedureHistoryPage(api: SignedInCaller, query: ProcedureHistoryParams) {
  return callApi(api, "/relatorios/tarefas-incompletas/procedimento", {
    query: query as Query,
    schema: IncompleteTaskPage,
  });
}

/** One page of a room's incomplete slots (GET /relatorios/tarefas-incompletas/ambiente/{id}). */
export function roomIncompletePage(api: SignedInCaller, id: number, query: RoomIncompleteParams) {
  return callApi(api, `/relatorios/tarefas-incompletas/ambiente/${id}`, {
    query: query as Query,
    schema: RoomIncompleteSlotPage,
  });
}
