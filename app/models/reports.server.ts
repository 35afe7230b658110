import { CollaboratorReportPage, type CollaboratorReportParams } from "../../api/routes/reports";

import { callApi } from "~/api.server";

import type { SignedInCaller } from "./catalogues.server";

/** The history reports' calls of the REST API (docs/reports.md), for one signed-in user. */
export type { CollaboratorReportPage };

/** One page of the collaborators report (GET /relatorios/colaboradores). */
export function collaboratorReportPage(api: SignedInCaller, query: CollaboratorReportParams) {
  return callApi(api, "/relatorios/colaboradores", {
    query: query as Record<string, string | number | undefined>,
    schema: CollaboratorReportPage,
  });
}
