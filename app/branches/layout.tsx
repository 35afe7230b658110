import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { BRANCH_TEXTS as T } from "../../api/domain/organisation";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { branchLayoutLoader } from "./layout.server";

/** /filiais: title with its help text, the 'Listar filiais' / 'Cadastrar filial' tabs, and the tab's content. */
export default function BranchLayout() {
  const { help } = useLoaderData<typeof branchLayoutLoader>();
  return (
    <>
      <PageHeader title={T.title} help={help} />
      <Tabs>
        <NavLink to="/filiais" end className="tab">
          {T.listTab}
        </NavLink>
        <NavLink to="/filiais/cadastrar" className="tab">
          {T.registerTab}
        </NavLink>
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
