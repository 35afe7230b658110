import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";

import { AppShell } from "~/components/app-shell";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { readDrawerState } from "~/lib/drawer.server";
import { menuFor } from "~/lib/navigation";
import { layoutFacts, requireUser } from "~/session.server";

/** The signed-in frame: drawer, top bar, footer. Every private page is nested here. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  const user = layoutFacts(auth);
  return {
    user,
    menu: menuFor(user),
    drawer: await readDrawerState(request),
    year: new Date().getFullYear(),
  };
}

export default function AppLayout() {
  const data = useLoaderData<typeof loader>();
  return (
    <AppShell {...data}>
      <Outlet />
    </AppShell>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
