import type { MetaFunction } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";

import type { RouteLoader } from "./catalogue.server";
import { DuplicateForm } from "./duplicate-form";
import type { catalogueDuplicateLoader } from "./duplicate.server";

/** Without JS the duplicate dialog is this page. */
export default function DuplicatePage() {
  const data = useLoaderData<typeof catalogueDuplicateLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="duplicate-title">
      <h2 id="duplicate-title">{data.title}</h2>
      <DuplicateForm data={data} redirectTo={data.redirectTo} />
    </section>
  );
}

export const meta: MetaFunction<RouteLoader<typeof catalogueDuplicateLoader>> = ({ data }) => [
  { title: `${data?.title ?? "Duplicar"} | Limpeza` },
];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
