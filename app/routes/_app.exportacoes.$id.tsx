import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { exportProgressLoader } from "~/exports/exports.server";
import { ExportProgress } from "~/exports/progress";

export const meta: MetaFunction = () => [{ title: "Exportação | Limpeza" }];

export const loader = (args: LoaderFunctionArgs) => exportProgressLoader(args);

export default ExportProgress;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
