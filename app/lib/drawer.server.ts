import { createCookie } from "@remix-run/node";

/** The drawer's remembered state (spec 000 §2 Layout). Unset: open above 1152 px, closed below (CSS decides). */
export const drawerCookie = createCookie("menu", { path: "/", sameSite: "lax", maxAge: 365 * 24 * 60 * 60 });

export type DrawerState = "open" | "closed" | "auto";

export async function readDrawerState(request: Request): Promise<DrawerState> {
  const value = await drawerCookie.parse(request.headers.get("cookie"));
  return value === "open" || value === "closed" ? value : "auto";
}
