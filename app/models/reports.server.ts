import {
  ActivityDetail,
  ActivityReportPage,
  type ActivityDetailParams,
  type ActivityReportParams,
} from "../../api/routes/report-activities";
import { ClientReportAnswer, type ClientReportParams } from "../../api/routes/report-client";
import {
  CollaboratorReportPage,
  EnvironmentReportPage,
  ReportDayDetail,
  ReportDaysPage,
  ReportRowsChunk,
  type CollaboratorReportParams,
  type EnvironmentReportParams,
  type ReportDayParams,
  type ReportDaysParams,
  type ReportRowsParams,
} from "../../api/routes/reports";

import { callApi, type SignedInCaller } from "~/api.server";

/** The history reports' calls of the REST API (docs/reports.md), for one signed-in user. */
export type { CollaboratorReportPage, EnvironmentReportPage, ReportDayDetail, ReportDaysPage, ReportRowsChunk };

type Query = Record<string, string | number | undefined>;

/** One page of the collaborators report (GET /relatorios/colaboradores). */
export function collaboratorReportPage(api: SignedInCaller, query: CollaboratorReportParams) {
  return callApi(api, "/relatorios/colaboradores", { query: query as Query, schema: CollaboratorReportPage });
}

/** One page of the environments report's cards (GET /relatorios/ambientes). */
export function environmentReportPage(api: SignedInCaller, query: EnvironmentReportParams) {
  return callApi(api, "/relatorios/ambientes", { query: query as Query, schema: EnvironmentReportPage });
}

/** One page of a collaborator's (room, day) groups (GET /relatorios/dias). */
export function reportDaysPage(api: SignedInCaller, query: ReportDaysParams) {
  return callApi(api, "/relatorios/dias", { query: query as Query, schema: ReportDaysPage });
}

/** A collaborator's day in one room, slot by slot (GET /relatorios/dia). */
export function reportDayDetail(api: SignedInCaller, query: ReportDayParams) {
  return callApi(api, "/relatorios/dia", { query: query as Query, schema: ReportDayDetail });
}

/** One keyset chunk of report rows (GET /relatorios/linhas). */
export function reportRowsChunk(api: SignedInCaller, query: ReportRowsParams) {
  return callApi(api, "/relatorios/linhas", { query: query as Query, schema: ReportRowsChunk });
}

/** One page of the activity reports (GET /relatorios/atividades; docs/activity-reports.md). */
export function activityReportPage(api: SignedInCaller, query: ActivityReportParams) {
  return callApi(api, "/relatorios/atividades", { query: query as Query, schema: ActivityReportPage });
}

/** One activity with the procedures executed in it (GET /relatorios/atividades/{id}). */
export function activityDetail(api: SignedInCaller, id: number, query: ActivityDetailParams) {
  return callApi(api, `/relatorios/atividades/${id}`, { query: query as Query, schema: ActivityDetail });
}

/** The client report of one branch and period (GET /relatorios/cliente; docs/decisions/006-client-report.md). */
export function clientReport(api: SignedInCaller, query: ClientReportParams) {
  return callApi(api, "/relatorios/cliente", { query: query as Query, schema: ClientReportAnswer });
}
