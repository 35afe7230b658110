/** /campo/limpeza/{id}: one slot's work, and the action every step form posts to (docs/field-app.md 'Pages'). */
import type { MetaFunction } from "@remix-run/node";

import { slotPageAction, slotPageLoader } from "~/field/slot-page.server";

export const loader = slotPageLoader;
export const action = slotPageAction;
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.room.environment.name} | Limpeza` : "Limpeza" },
];
export { default } from "~/field/slot-page";
