import type { ActionFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";

import { drawerCookie } from "~/lib/drawer.server";
import { safeRedirectTo } from "~/session.server";

/** Opens or closes the drawer and remembers it; a plain form post so it works without JS too. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const state = form.get("state") === "open" ? "open" : "closed";
  const headers = { "set-cookie": await drawerCookie(context).serialize(state) };
  // The JS toggle (a fetcher) sends no redirectTo: it stays on its page. A fetcher action that redirects starts a
  // navigation, which showed 'Carregando...' and, toggled again meanwhile, crashed the router ('Expected fetcher').
  if (!form.has("redirectTo") || request.headers.get("accept")?.includes("application/json"))
    return data({ state }, { headers });
  return redirect(safeRedirectTo(form.get("redirectTo")), { headers });
}

export async function loader() {
  return redirect("/dashboard");
}
