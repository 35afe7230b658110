import { createCookieSessionStorage, type AppLoadContext } from "@remix-run/node";

type Storage = ReturnType<typeof createCookieSessionStorage<Record<string, unknown>, Record<string, unknown>>>;
const storages = new Map<string, Storage>();

/**
 * A signed, httpOnly, SameSite=Lax cookie session (Secure in production). The secret comes from the load context
 * (server.ts resolves it at start), so storages are made on first use and kept per cookie name and secret.
 */
export function cookieStorage(context: AppLoadContext, name: string, maxAge?: number) {
  const key = `${name}:${context.sessionSecret}:${context.secureCookies}`;
  let storage = storages.get(key);
  if (!storage) {
    storage = createCookieSessionStorage<Record<string, unknown>, Record<string, unknown>>({
      cookie: {
        name,
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure: context.secureCookies,
        secrets: [context.sessionSecret],
        ...(maxAge ? { maxAge } : {}),
      },
    });
    storages.set(key, storage);
  }
  return storage;
}
