import { useLoaderData, type MetaFunction } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Entrar | Piso" }];

export const loader = () => ({ now: new Date().toISOString() });

/** A page about the size of the product's sign-in form, with a loader, as a bare Remix page. */
export default function Index() {
  const { now } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Entrar</h1>
      <form method="post">
        <label>
          E-mail <input name="email" type="email" autoComplete="username" />
        </label>
        <label>
          Senha <input name="password" type="password" autoComplete="current-password" />
        </label>
        <button type="submit">Entrar</button>
      </form>
      <p>{now}</p>
    </main>
  );
}
