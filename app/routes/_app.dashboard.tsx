/** /dashboard: the board of the period's bookings in four columns, or as a table (spec 001 §2.6). */
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";

import { boardLoader } from "~/dashboard/board.server";
import boardStyles from "~/styles/board.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: boardStyles }];
export const meta: MetaFunction = () => [{ title: "Dashboard | Limpeza" }];
export const loader = (args: LoaderFunctionArgs) => boardLoader(args);

/** The board's own query: on a detail URL, the board it came from ('voltar'). */
const boardSearch = (url: URL) =>
  url.pathname.startsWith("/dashboard/agenda/")
    ? new URL(url.searchParams.get("voltar") ?? "/dashboard", url).search
    : url.search;

/** Opening or closing a card's detail, or switching its tabs, leaves the board's data as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) =>
  formMethod && formMethod.toUpperCase() !== "GET"
    ? defaultShouldRevalidate
    : boardSearch(currentUrl) === boardSearch(nextUrl)
      ? false
      : defaultShouldRevalidate;

export { default } from "~/dashboard/board";
export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
