import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { agendamentosLayoutLoader } from "./layout.server";

/** /agendamentos: 'Agendamentos' with the tabs 'Listar agendamentos' / 'Cadastrar agendamentos' (spec 001 §2.1). */
export default function AgendamentosLayout() {
  const { canRegister, texts: T } = useLoaderData<typeof agendamentosLayoutLoader>();
  return (
    <>
      <PageHeader
        title="Agendamentos"
        help="Veja, edite e remova os agendamentos de cada dia, ou cadastre uma agenda: empresa, colaborador e os itens (ambiente, periodicidade, horários e vigência)."
      />
      <Tabs>
        <NavLink to="/agendamentos" end className="tab">
          {T.listTab}
        </NavLink>
        {canRegister ? (
          <NavLink to="/agendamentos/cadastrar" className="tab">
            {T.registerTab}
          </NavLink>
        ) : null}
      </Tabs>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Agendamentos | Limpeza" }];

/** Moving through the month, the day or the search leaves the frame as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod !== undefined && formMethod.toUpperCase() !== "GET" && defaultShouldRevalidate;

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
