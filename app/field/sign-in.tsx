import { useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";

import type { loader as rootLoader } from "~/root";

import type { fieldSignInAction, fieldSignInLoader } from "./sign-in.server";

export default function FieldSignInPage() {
  const { back } = useLoaderData<typeof fieldSignInLoader>();
  const answer = useActionData<typeof fieldSignInAction>();
  const toast = useRouteLoaderData<typeof rootLoader>("root")?.toast;
  return (
    <>
      <nav className="bar" aria-label="App de limpeza">
        <span className="home">Limpeza · equipe</span>
      </nav>
      <main>
        <h1>Entrar no app de limpeza</h1>
        {toast ? (
          <p className="flash" role="status">
            {toast.title}
          </p>
        ) : null}
        {answer?.error ? (
          <p className="flash error" role="alert">
            {answer.error}
          </p>
        ) : null}
        <form method="post" action="/campo/entrar">
          <input type="hidden" name="voltar" value={back} />
          <label htmlFor="email">E-mail</label>
          <input id="email" name="email" type="email" autoComplete="username" required />
          <label htmlFor="password">Senha</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className="big">
            Entrar
          </button>
        </form>
        <p className="hint">
          Use o mesmo e-mail e senha do cadastro. Gestores: o painel fica em <a href="/">Entrar no painel</a>.
        </p>
      </main>
    </>
  );
}
