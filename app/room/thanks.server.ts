import type { LoaderFunctionArgs } from "@remix-run/node";

import { INCIDENT_TEXTS } from "../../api/domain/incidents";

/**
 * /info/ambiente/{id}/obrigado: where a visitor's rating or report lands (the form posts, then redirects here, so a
 * reload sends nothing twice). Says what happens next; no script, as the room page.
 */
export function thanksLoader({ params, request }: LoaderFunctionArgs) {
  const report = new URL(request.url).searchParams.get("envio") === "relato";
  return {
    roomHref: `/info/ambiente/${encodeURIComponent(params.id ?? "")}`,
    title: report ? INCIDENT_TEXTS.thanksReport : INCIDENT_TEXTS.thanksRating,
    next: report ? INCIDENT_TEXTS.thanksReportNext : INCIDENT_TEXTS.thanksRatingNext,
    back: INCIDENT_TEXTS.backToRoom,
  };
}
