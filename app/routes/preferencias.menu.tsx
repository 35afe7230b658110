import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

import { drawerCookie } from "~/lib/drawer.server";
import { safeRedirectTo } from "~/session.server";

/** Opens or closes the drawer and remembers it; a plain form post so it works without JS too. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const state = form.get("state") === "open" ? "open" : "closed";
  const headers = { "set-cookie": await drawerCookie(context).serialize(state) };
  // The JS toggle posts the same form with fetch() and does not follow the redirect: it keeps only the cookie.
  return redirect(safeRedirectTo(form.get("redirectTo")), { headers });
}

export async function loader() {
  return redirect("/dashboard");
}
