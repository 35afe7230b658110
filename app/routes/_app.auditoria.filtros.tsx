/** /auditoria/filtros: the dashboard's 'Filtros' dialog, over the charts (spec 001 §2.13). */
import type { LoaderFunctionArgs } from "@remix-run/node";

import { AuditFilters } from "~/audit/audit-filters";
import { auditFiltersLoader } from "~/audit/audit-page.server";

export default AuditFilters;
export const loader = (args: LoaderFunctionArgs) => auditFiltersLoader(args);
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
