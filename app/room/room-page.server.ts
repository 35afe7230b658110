import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";

import { businessTime } from "../../api/domain/board";
import { INT32_MAX } from "../../api/domain/fields";
import { INCIDENT_TEXTS, RATINGS, roomIncidentText } from "../../api/domain/incidents";
import { can } from "../../api/domain/roles";
import {
  parseRoomView,
  ROOM_TEXTS,
  ROOM_VIEW_LABELS,
  ROOM_VIEWS,
  roomCards,
  roomDayOf,
  withLateHours,
} from "../../api/domain/room-page";
import { businessToday } from "../../api/domain/schedule-expansion";
import { RoomPage, ROOM_PAGE_MAX_AGE } from "../../api/routes/info";

import { callApi } from "~/api.server";
import { weekdayDateBR } from "~/lib/business-time.server";
import { getSessionUser, hasSessionCookie } from "~/session.server";

const ID = /^\d{1,10}$/;
/** The room's QR value as the printed code carries it (docs/qr-codes.md 'What the code holds'). */
const QR_VALUE = /^[0-9a-f]{16}$/;

/**
 * 'Sou da equipe de limpeza': the room's field page, with the QR value this page was opened with and nothing else
 * (never the room's current value: a visitor who typed the address must not get the proof, docs/field-app.md 'Proof
 * flags'). The value is not printed on the page; it travels in this link and in the views' links only.
 */
export function fieldLinkQuery(url: URL) {
  const qr = url.searchParams.get("qr") ?? "";
  return QR_VALUE.test(qr) ? qr : null;
}

/**
 * /info/ambiente/{id} (spec 001 §2.14): the public room page, no session. The API answers the day's cards; the page
 * shows the view the URL asks for (?ver=ultimas|proximas|todas). An id that is not a live environment (unknown,
 * removed, not a number, beyond 32 bits) is a 404 with a friendly page, not an error.
 */
export async function roomPageLoader({ request, context, params }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const view = parseRoomView(url.searchParams.get("ver"));
  const qr = fieldLinkQuery(url);
  const id = params.id ?? "";
  const result =
    ID.test(id) && Number(id) <= INT32_MAX
      ? await callApi({ context, request }, `/info/ambiente/${id}`, { schema: RoomPage })
      : ({ ok: false, status: 404 } as const);
  if (!result.ok) {
    // Anything but 'not found' is the server's trouble: the error boundary says so and the page is not cached.
    if (result.status !== 404) throw new Response(null, { status: result.status });
    return data({ found: false as const, texts: ROOM_TEXTS }, { status: 404 });
  }
  const { environment, date, cards, formToken, kinds, openIncident } = result.data;
  const inspectHref = await inspectLinkFor(request, context, environment.id);

  const page = {
    found: true as const,
    inspectHref,
    inspectText: "Inspecionar este ambiente",
    fieldHref: `/campo/ambiente/${environment.id}${qr ? `?qr=${qr}` : ""}`,
    fieldText: ROOM_FIELD_LINK,
    texts: ROOM_TEXTS,
    incidentTexts: INCIDENT_TEXTS,
    ratings: RATINGS,
    formToken,
    kinds,
    openIncident: openIncident && {
      ...openIncident,
      text: roomIncidentText(openIncident.status, openIncident.reportedAt),
    },
    view,
    viewLabel: ROOM_VIEW_LABELS[view],
    // The views keep the QR value, so 'Sou da equipe de limpeza' still carries it after a change of view.
    views: ROOM_VIEWS.map((known) => ({
      view: known,
      label: ROOM_VIEW_LABELS[known],
      href: `?${new URLSearchParams({ ver: known, ...(qr ? { qr } : {}) })}`,
    })),
    environment,
    date,
    dateText: weekdayDateBR(date),
    cards: withLateHours(roomCards(roomDayOf(cards), view), {
      date,
      today: businessToday(),
      now: businessTime(new Date()) ?? "00:00",
    }),
  };
  // A signed-in page is that person's: never kept by the micro-cache or a proxy (server.ts skips the cache for it).
  return inspectHref ? data(page, { headers: { "cache-control": "private, no-store" } }) : page;
}

/**
 * 'Inspecionar' (issue 29 §2) for a signed-in inspector who scanned the room's QR code: only a request carrying the
 * session cookie is asked about (visitors' pages stay the one cached page), and a failed check is just no link.
 */
async function inspectLinkFor(request: Request, context: LoaderFunctionArgs["context"], environmentId: number) {
  if (!hasSessionCookie(request)) return null;
  const auth = await getSessionUser(request, context).catch(() => null);
  return auth && can(auth.user, "inspect") ? `/inspecoes/nova/${environmentId}` : null;
}

const ROOM_FIELD_LINK = "Sou da equipe de limpeza";

/** Cacheable for a minute by the phone and any proxy: a QR code scanned by a queue of people costs one render. */
export const roomPageHeaders: HeadersFunction = ({ loaderHeaders }) => ({
  "cache-control": loaderHeaders.get("cache-control") ?? `public, max-age=${ROOM_PAGE_MAX_AGE}`,
});

export type RoomActionData = { intent: "avaliar" | "relatar"; message: string; tooMany?: boolean };

/**
 * The room page's two forms (issue 28): 'Avaliar limpeza' and 'Relatar problema', posted here without JS and passed to
 * the public API with the visitor's address (server.ts). Accepted (or quietly dropped): the thank-you page. Refused:
 * the page again with the message where the form is, 429 with its own words past the limits.
 */
export async function roomPageAction({ request, context, params }: ActionFunctionArgs) {
  const id = params.id ?? "";
  if (!ID.test(id) || Number(id) > INT32_MAX) throw new Response(null, { status: 404 });
  const form = await request.formData();
  const intent = form.get("intent") === "relatar" ? "relatar" : "avaliar";
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  let result;
  if (intent === "avaliar") {
    result = await callApi({ context, request }, `/info/ambiente/${id}/avaliacao`, {
      method: "POST",
      json: {
        nota: Number(text("nota")) || 0,
        formToken: text("formToken").slice(0, 64),
        site: text("site").slice(0, 200),
      },
    });
  } else {
    const report = new FormData();
    for (const name of ["tipo", "descricao", "formToken", "site"]) report.set(name, text(name));
    const photo = form.get("foto");
    if (photo instanceof File && photo.size > 0) report.set("foto", photo);
    result = await callApi({ context, request }, `/info/ambiente/${id}/relato`, { method: "POST", formData: report });
  }
  if (result.ok)
    return redirect(`/info/ambiente/${id}/obrigado?envio=${intent === "avaliar" ? "avaliacao" : "relato"}`);
  if (result.status === 404) throw new Response(null, { status: 404 });
  if (result.status === 429)
    return data<RoomActionData>({ intent, message: INCIDENT_TEXTS.tooMany, tooMany: true }, { status: 429 });
  if (result.status >= 500) throw new Response(null, { status: result.status });
  return data<RoomActionData>({ intent, message: result.message }, { status: 400 });
}
