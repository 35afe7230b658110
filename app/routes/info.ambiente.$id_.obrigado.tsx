/** /info/ambiente/{id}/obrigado: the thank-you after a visitor's rating or report (issue 28; docs/incidents.md). */
import type { MetaFunction } from "@remix-run/node";

import { thanksLoader } from "~/room/thanks.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { document: "bare" };
export const loader = thanksLoader;
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "Obrigado"} | Limpeza` }];
export { default } from "~/room/thanks";
