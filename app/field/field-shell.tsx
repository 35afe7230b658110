import { useRouteLoaderData } from "@remix-run/react";

import type { loader as rootLoader } from "~/root";

/**
 * The frame of every signed-in field page: 'Hoje' and 'Sair' on top, the last step's message, and the line the
 * phone's script fills with what waits to be sent (docs/field-app.md 'Offline'). Without JS that line stays hidden:
 * nothing waits on a phone that sends each form as it is submitted.
 */
export function FieldShell({ children }: { children: React.ReactNode }) {
  const toast = useRouteLoaderData<typeof rootLoader>("root")?.toast;
  return (
    <>
      <nav className="bar" aria-label="App de limpeza">
        <a className="home" href="/campo" data-guardar="">
          Hoje
        </a>
        <form method="post" action="/campo/sair">
          <button type="submit">Sair</button>
        </form>
      </nav>
      <main>
        {toast ? (
          <p className={toast.type === "error" ? "flash error" : "flash"} role="status">
            {toast.title}
            {toast.description ? `: ${toast.description}` : ""}
          </p>
        ) : null}
        <p className="pending" data-pendentes role="status" hidden />
        <div data-recusados hidden className="notice" role="alert" />
        {children}
      </main>
    </>
  );
}
