/** /fotos/:name/ampliar?voltar=: an execution photo as large as the screen allows, with 'Voltar' (no JS needed). */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

import { GeneralErrorBoundary } from "~/components/error-boundary";
import { photoZoomLoader } from "~/photos/photos.server";
import photoStyles from "~/styles/photos.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: photoStyles }];

export const meta: MetaFunction = () => [{ title: "Foto | Limpeza" }];

export const loader = (args: LoaderFunctionArgs) => photoZoomLoader(args);

export default function PhotoZoom() {
  const { src, back } = useLoaderData<typeof loader>();
  return (
    <main className="photo-zoom">
      <h1>Foto da execução</h1>
      <img src={src} alt="Foto registrada na execução do procedimento" />
      <Link className="button button-primary" to={back}>
        Voltar
      </Link>
    </main>
  );
}

export function ErrorBoundary() {
  return (
    <main className="auth-page">
      <GeneralErrorBoundary />
    </main>
  );
}
