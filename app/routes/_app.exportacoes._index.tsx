import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { exportListLoader } from "~/exports/exports.server";
import { ExportList } from "~/exports/list";

export const meta: MetaFunction = () => [{ title: "Minhas exportações | Limpeza" }];

export const loader = (args: LoaderFunctionArgs) => exportListLoader(args);

export default ExportList;

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
