/** The field app's pages (docs/field-app.md): its own document (root.tsx `document: "field"`), no Remix script. */
import { Outlet } from "@remix-run/react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { document: "field" };

export default function FieldLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return (
    <main>
      <GeneralErrorBoundary home={{ to: "/campo", label: "Voltar para Hoje" }} />
    </main>
  );
}
