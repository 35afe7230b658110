import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";

import { drawerCookie } from "~/lib/drawer.server";
import { safeRedirectTo } from "~/session.server";

/** Opens or closes the drawer and remembers it; a plain form post so it works without JS too. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const state = form.get("state") === "open" ? "open" : "closed";
  const headers = { "set-cookie": await drawerCookie.serialize(state) };
  if (request.headers.get("accept")?.includes("application/json")) return new Response(null, { status: 204, headers });
  return redirect(safeRedirectTo(form.get("redirectTo")), { headers });
}

export async function loader() {
  return redirect("/dashboard");
}
