/** /campo: 'Hoje', the cleaner's day (docs/field-app.md 'Pages'). */
import type { MetaFunction } from "@remix-run/node";

import { todayLoader } from "~/field/today.server";

export const loader = todayLoader;
export const meta: MetaFunction = () => [{ title: "Hoje | Limpeza" }];
export { default } from "~/field/today";
