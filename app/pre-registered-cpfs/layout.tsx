import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { cpfLayoutLoader } from "./layout.server";

/** /pre-cadastro-usuarios: title with its help text, the 'Listar CPF's' / 'Cadastrar CPF's' tabs, the tab's content. */
export default function CpfLayout() {
  const { canEdit, help } = useLoaderData<typeof cpfLayoutLoader>();
  return (
    <>
      <PageHeader title={T.title} help={help} />
      <Tabs>
        <NavLink to="/pre-cadastro-usuarios" end className="tab">
          {T.listTab}
        </NavLink>
        {canEdit ? (
          <NavLink to="/pre-cadastro-usuarios/cadastrar" className="tab">
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
