/** /info/ambiente/{id}: the public room page a QR code opens (spec 001 §2.14; docs/room-page.md), and its forms. */
import type { MetaFunction } from "@remix-run/node";

import { roomPageAction, roomPageHeaders, roomPageLoader } from "~/room/room-page.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { document: "bare" };
export const loader = roomPageLoader;
export const action = roomPageAction;
export const headers = roomPageHeaders;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.found ? `${data.environment.name} | Limpeza` : "Ambiente não encontrado | Limpeza" },
  { name: "description", content: "Últimas e próximas limpezas deste ambiente." },
];
export { default } from "~/room/room-page";
