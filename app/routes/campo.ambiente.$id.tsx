/** /campo/ambiente/{id}: the room a cleaner scanned (docs/field-app.md 'Pages'). */
import type { MetaFunction } from "@remix-run/node";

import { fieldRoomLoader } from "~/field/room-page.server";

export const loader = fieldRoomLoader;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.room.environment.name} | Limpeza` : "Ambiente | Limpeza" },
];
export { default } from "~/field/room-page";
