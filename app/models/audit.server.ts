import { AuditAnswer, AuditOptionsAnswer, type AuditOptionsParams, type AuditParams } from "../../api/routes/audit";

import { callApi, type SignedInCaller } from "~/api.server";

/** The audit dashboard's calls of the REST API (docs/audit-dashboard.md), for one signed-in user. */
export type { AuditAnswer, AuditOptionsAnswer };

type Query = Record<string, string | number | undefined>;

/** The enabled boards' charts of a period and filter (GET /auditoria). */
export function auditDashboard(api: SignedInCaller, query: AuditParams) {
  return callApi(api, "/auditoria", { query: query as Query, schema: AuditAnswer });
}

/** The 'Filtros' dialog's lists (GET /auditoria/opcoes). */
export function auditFilterOptions(api: SignedInCaller, query: AuditOptionsParams) {
  return callApi(api, "/auditoria/opcoes", { query: query as Query, schema: AuditOptionsAnswer });
}
