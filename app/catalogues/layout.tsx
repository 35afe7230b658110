import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { RouteLoader } from "./catalogue.server";
import type { catalogueLayoutLoader } from "./layout.server";

/** A catalogue page: title with its help text, the 'Listar' / 'Cadastrar' tabs, and the tab's content. */
export default function CatalogueLayout() {
  const { kind, title, texts, canRegister } = useLoaderData<typeof catalogueLayoutLoader>();
  return (
    <>
      <PageHeader title={title} help={texts.help} />
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

export const meta: MetaFunction<RouteLoader<typeof catalogueLayoutLoader>> = ({ data }) => [
  { title: `${data?.title ?? "Cadastros"} | Limpeza` },
];

/**
 * Searching, sorting and paging change only the list's query: the tabs and help text stay, so the branch look-up
 * behind them is not repeated on every list click. After a form post it runs again as usual.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined && formMethod.toUpperCase() !== "GET" && defaultShouldRevalidate;

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
