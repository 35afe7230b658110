import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { environmentLayoutLoader } from "./layout.server";

/** /ambientes: title with its help text, the 'Listar ambientes' / 'Cadastrar ambiente' tabs, and the tab's content. */
export default function EnvironmentsLayout() {
  const { canRegister, help, texts: T } = useLoaderData<typeof environmentLayoutLoader>();
  return (
    <>
      <PageHeader title="Ambientes" help={help} />
      <Tabs>
        <NavLink to="/ambientes" end className="tab">
          {T.listTab}
        </NavLink>
        {canRegister ? (
          <NavLink to="/ambientes/cadastrar" className="tab">
            {T.registerTab}
          </NavLink>
        ) : null}
      </Tabs>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Ambientes | Limpeza" }];

/** As the catalogues: searching, sorting, paging and the form's company change leave the frame as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined && formMethod.toUpperCase() !== "GET" && defaultShouldRevalidate;

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
