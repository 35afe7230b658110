import { createCookie, type AppLoadContext, type Cookie } from "@remix-run/node";

/** The drawer's remembered state (spec 000 §2 Layout). Unset: open above 1152 px, closed below (CSS decides). */
const options = { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 24 * 60 * 60 } as const;
const cookies = new Map<boolean, Cookie>();

/**
 * Only the server reads it (a form post sets it, loaders read it), so no script needs it: httpOnly, and Secure
 * where the session cookie is (production; server.ts decides, the build cannot).
 */
export function drawerCookie(context: Pick<AppLoadContext, "secureCookies">) {
  let cookie = cookies.get(context.secureCookies);
  if (!cookie)
    cookies.set(context.secureCookies, (cookie = createCookie("menu", { ...options, secure: context.secureCookies })));
  return cookie;
}

export type DrawerState = "open" | "closed" | "auto";

export async function readDrawerState(request: Request): Promise<DrawerState> {
  const value = await drawerCookie({ secureCookies: false }).parse(request.headers.get("cookie"));
  return value === "open" || value === "closed" ? value : "auto";
}
