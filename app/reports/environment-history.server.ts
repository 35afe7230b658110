import type { LoaderFunctionArgs } from "@remix-run/node";

import { REPORT_TEXTS } from "../../api/domain/reports";

import { failLoad } from "~/lib/fail-load.server";
import { idParam } from "~/lib/list-params";
import { getEnvironment } from "~/models/environments.server";
import { collaboratorReportPage } from "~/models/reports.server";

import { dayLevel, daysLevel } from "./drill-down.server";
import { ENVIRONMENTS_PATH } from "./environments.server";
import { listQuery, reportFrame } from "./frame.server";
import { withQuery } from "./report-links";
import { periodText } from "./report-rows.server";

/**
 * 'Histórico do Ambiente' (spec 001 §2.10), three levels under /historico-ambientes/:ambienteId: the room's
 * collaborators in the period, a collaborator's days in the room (/:userId), and the day's procedure details
 * (/:userId/:data, the same 'Detalhes do Histórico' as the collaborators report). Each keeps the list's query.
 */

const roomPath = (environmentId: number) => `${ENVIRONMENTS_PATH}/${environmentId}`;

/** The room's collaborators in the period, with their counts (the collaborators report narrowed to the room). */
export async function environmentCollaboratorsLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, ENVIRONMENTS_PATH);
  const environmentId = idParam(args.params.ambienteId);
  const room = await getEnvironment(frame.api, environmentId);
  if (!room.ok) return failLoad(frame.api, room, REPORT_TEXTS.loadFailed);
  const result = await collaboratorReportPage(frame.api, {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
    ambienteId: environmentId,
    size: 0,
    // 'Mostrar dados anteriores à Agosto/2022' on the list: the room's old rows too (docs/legacy-data.md).
    ...(frame.search.get("anteriores") === "1" ? { anteriores: "1" as const } : {}),
  });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const list = listQuery(frame.search);
  return {
    subtitle: `${room.data.name} · ${periodText(frame)}`,
    close: withQuery(ENVIRONMENTS_PATH, list),
    total: result.data.total,
    collaborators: result.data.items.map((item) => ({
      id: item.id,
      nome: item.nome,
      agendamentos: item.agendamentos,
      completos: item.completos,
      href: withQuery(`${roomPath(environmentId)}/${item.id}`, list),
    })),
  };
}

export function environmentDaysLoader(args: LoaderFunctionArgs) {
  const environmentId = idParam(args.params.ambienteId);
  const userId = idParam(args.params.userId);
  const query = new URL(args.request.url).searchParams;
  const list = listQuery(query);
  return daysLevel(
    args,
    { path: ENVIRONMENTS_PATH, back: withQuery(roomPath(environmentId), list), environmentId },
    (day) => withQuery(`${roomPath(environmentId)}/${userId}/${day.data}`, list, { dias: query.get("dias") }),
  );
}

export function environmentDayLoader(args: LoaderFunctionArgs) {
  const environmentId = idParam(args.params.ambienteId);
  const userId = idParam(args.params.userId);
  const query = new URL(args.request.url).searchParams;
  return dayLevel(args, {
    path: ENVIRONMENTS_PATH,
    back: withQuery(`${roomPath(environmentId)}/${userId}`, listQuery(query), { dias: query.get("dias") }),
  });
}
