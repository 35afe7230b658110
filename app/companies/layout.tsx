import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { COMPANY_TEXTS as T } from "../../api/domain/organisation";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { companyLayoutLoader } from "./layout.server";

/** /empresa-principal: title with its help text, the 'Listar empresas' / 'Cadastrar empresa' tabs, the tab. */
export default function CompanyLayout() {
  const { canEdit } = useLoaderData<typeof companyLayoutLoader>();
  return (
    <>
      <PageHeader title={T.title} help={canEdit ? T.helpEditor : T.helpViewer} />
      <Tabs>
        <NavLink to="/empresa-principal" end className="tab">
          {T.listTab}
        </NavLink>
        {canEdit ? (
          <NavLink to="/empresa-principal/cadastrar" className="tab">
            {T.registerTab}
          </NavLink>
        ) : null}
      </Tabs>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.title} | Limpeza` }];

/** Searching, sorting and paging change only the list: the frame is not loaded again for them. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined && formMethod.toUpperCase() !== "GET" && defaultShouldRevalidate;

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
