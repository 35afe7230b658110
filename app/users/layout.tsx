import type { MetaFunction, ShouldRevalidateFunction } from "@remix-run/react";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";

import { USER_TEXTS as T } from "../../api/domain/users";

import { PageHeader } from "~/components/page-header";
import { Tabs } from "~/components/tabs";

import type { userLayoutLoader } from "./layout.server";
import { USERS_PATH } from "./links";

/** /listagem-usuarios: title with its help text, the 'Listar usuários' / 'Cadastrar usuário' tabs, the tab's content. */
export default function UserLayout() {
  const { canRegister, help } = useLoaderData<typeof userLayoutLoader>();
  return (
    <>
      <PageHeader title={T.title} help={help} />
      <Tabs>
        <NavLink to={USERS_PATH} end className="tab">
          {T.listTab}
        </NavLink>
        {canRegister ? (
          <NavLink to={`${USERS_PATH}/cadastrar`} className="tab">
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
