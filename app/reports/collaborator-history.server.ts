import type { LoaderFunctionArgs } from "@remix-run/node";

import { REPORT_TEXTS } from "../../api/domain/reports";

import { avatarThumbUrl } from "~/lib/avatars";
import { failLoad } from "~/lib/fail-load.server";
import { invariantResponse } from "~/lib/invariant";
import { idParam } from "~/lib/list-params";
import { fileDate } from "~/lib/xlsx.server";
import { collaboratorReportPage } from "~/models/reports.server";

import { COLLABORATORS_PATH, collaboratorListQuery, collaboratorRow } from "./collaborators.server";
import { dayLevel, daysLevel } from "./drill-down.server";
import { listQuery, reportFrame } from "./frame.server";
import { withQuery } from "./report-links";
import { periodText, reportRowsPdf, reportRowsXlsx } from "./report-rows.server";

/**
 * The collaborators report's drill-downs (spec 001 §2.9): /historico-colaboradores/:userId (the history: room and
 * date groups), /:userId/detalhes ('Detalhes do Colaborador'), /:userId/:ambienteId/:data ('Detalhes do
 * Histórico'), and the history's downloads /:userId/relatorio.xlsx and .pdf; each keeps the list's query.
 */

const listHref = (request: Request) => withQuery(COLLABORATORS_PATH, listQuery(new URL(request.url).searchParams));
const historyPath = (userId: number) => `${COLLABORATORS_PATH}/${userId}`;

export function collaboratorDaysLoader(args: LoaderFunctionArgs) {
  const userId = idParam(args.params.userId);
  const query = new URL(args.request.url).searchParams;
  return daysLevel(args, { path: COLLABORATORS_PATH, back: listHref(args.request) }, (day) =>
    withQuery(`${historyPath(userId)}/${day.ambienteId}/${day.data}`, listQuery(query), {
      dias: query.get("dias"),
    }),
  );
}

export function collaboratorDayLoader(args: LoaderFunctionArgs) {
  const userId = idParam(args.params.userId);
  const query = new URL(args.request.url).searchParams;
  return dayLevel(args, {
    path: COLLABORATORS_PATH,
    back: withQuery(historyPath(userId), listQuery(query), { dias: query.get("dias") }),
  });
}

/** 'Detalhes do Colaborador': avatar, CPF, full name, birth date, phone and e-mail ('-' for what is missing). */
export async function collaboratorDetailsLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, COLLABORATORS_PATH);
  const userId = idParam(args.params.userId);
  const { query } = collaboratorListQuery(frame);
  const result = await collaboratorReportPage(frame.api, { ...query, q: undefined, page: 1, userId });
  if (!result.ok) return failLoad(frame.api, result, REPORT_TEXTS.loadFailed);
  const item = result.data.items[0];
  invariantResponse(item, REPORT_TEXTS.collaboratorHistoryEmpty, { status: 404 });
  const row = collaboratorRow(item);
  return {
    close: listHref(args.request),
    avatar: item.avatar ? avatarThumbUrl(item.avatar) : null,
    facts: [
      ["CPF", row.cpf],
      ["Nome completo", row.nome],
      ["Data de nascimento", row.dataNascimento],
      ["Telefone", row.telefone],
      ["E-mail", row.email],
    ] as [string, string][],
  };
}

/** The history's rows (every room and day of the period) as 'relatorio-colaborador-DD-MM-YYYY.xlsx'. */
export async function collaboratorXlsxLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, COLLABORATORS_PATH);
  return reportRowsXlsx(frame, { userId: idParam(args.params.userId) }, `relatorio-colaborador-${fileDate()}.xlsx`);
}

/** The same rows as 'relatorio-colaborador-DD-MM-YYYY.pdf', titled 'Relatório de Agendamentos'. */
export async function collaboratorPdfLoader(args: LoaderFunctionArgs) {
  const frame = await reportFrame(args, COLLABORATORS_PATH);
  const userId = idParam(args.params.userId);
  const name = await collaboratorReportPage(frame.api, {
    dataIni: frame.period.from,
    dataFim: frame.period.to,
    ...frame.scope,
    userId,
  });
  if (!name.ok) return failLoad(frame.api, name, REPORT_TEXTS.loadFailed);
  return reportRowsPdf(
    args,
    frame,
    { userId },
    {
      fileName: `relatorio-colaborador-${fileDate()}.pdf`,
      subtitle: `${name.data.items[0]?.nome ?? ""} · ${periodText(frame)}`,
      back: withQuery(historyPath(userId), listQuery(frame.search)),
    },
  );
}
