import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Tabs } from "~/components/list-controls";
import { PageHeader } from "~/components/page-header";

import { activeBranches, requireCatalogue } from "./catalogue.server";

/** A catalogue page: title with its help text, the 'Listar' / 'Cadastrar' tabs, and the tab's content. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const catalogue = await requireCatalogue(request, context);
  // The register tab needs a main company and at least one active branch to register into (spec 000 §2).
  const canRegister = catalogue.canEdit && (await activeBranches(request, context, catalogue)).length > 0;
  return json({
    canRegister,
    kind: catalogue.kind,
    title: catalogue.definition.titlePlural,
    texts: catalogue.texts,
    canEdit: catalogue.canEdit,
  });
}

/**
 * Searching, sorting and paging change only the list's query: the tabs and help text stay, so the branch look-up
 * behind them is not repeated on every list click. After a form post it runs again as usual.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined && formMethod.toUpperCase() !== "GET" && defaultShouldRevalidate;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Cadastros"} | Limpeza` }];

export default function CatalogueLayout() {
  const { kind, title, texts, canEdit, canRegister } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={title} help={canEdit ? texts.helpEditor : texts.helpViewer} />
      <Tabs>
        <NavLink to={`/${kind}`} end className="tab">
          {texts.listTab}
        </NavLink>
        {canRegister ? (
          <NavLink to={`/${kind}/cadastrar`} className="tab">
            {texts.registerTab}
          </NavLink>
        ) : null}
      </Tabs>
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
