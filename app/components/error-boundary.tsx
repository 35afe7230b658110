import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

import { UNEXPECTED } from "../../api/domain/messages";

/**
 * The one error view every route shares: 403 and 404 get their own words, another refusal (400: a value of the URL
 * the API refused) the message it came with, anything else a generic apology.
 */
export function GeneralErrorBoundary({
  home = { to: "/", label: "Voltar ao início" },
}: {
  home?: { to: string; label: string };
}) {
  const error = useRouteError();
  let title = "Houve um erro";
  let description = UNEXPECTED;
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Página não encontrada";
      description =
        typeof error.data === "string" && error.data
          ? error.data
          : "O registro procurado não existe ou não está disponível para você.";
    } else if (error.status === 403) {
      title = "Permissão negada!";
      description = "Você não tem acesso a esta página.";
    } else if (error.status < 500 && typeof error.data === "string" && error.data) {
      title = "Pedido inválido";
      description = error.data;
    }
  } else if (typeof document === "undefined") {
    console.error(error);
  }
  return (
    <section className="error-view" role="alert">
      <h1>{title}</h1>
      <p>{description}</p>
      <p>
        <Link to={home.to}>{home.label}</Link>
      </p>
    </section>
  );
}
