/// <reference lib="webworker" />
/**
 * The field app's service worker (docs/field-app.md 'Offline'), scope /campo ('Hoje' and every page under it): the pages of the day network first
 * with the last copy kept for when there is no signal, the shell (script, stylesheet, icons, the offline page)
 * from the cache while it is refreshed, and the phone's queue sent by Background Sync.
 */
import { flush } from "./queue";

declare const self: ServiceWorkerGlobalScope;

const CACHE = "campo-v1";
const OFFLINE = "/campo/offline";
const SHELL = [OFFLINE, "/campo/app.js", "/campo/manifest.webmanifest", "/campo/icone-192.png", "/favicon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

/** A page as it came, kept unless it was a redirect (to sign-in) or a refusal. */
async function keep(request: Request | string, response: Response) {
  if (response.ok && !response.redirected && response.type === "basic")
    await (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

async function page(request: Request) {
  try {
    return await keep(request, await fetch(request));
  } catch {
    const cache = await caches.open(CACHE);
    return (
      (await cache.match(request, { ignoreVary: true })) ??
      (await cache.match(request, { ignoreSearch: true, ignoreVary: true })) ??
      (await cache.match(OFFLINE, { ignoreVary: true })) ??
      Response.error()
    );
  }
}

async function asset(request: Request) {
  const cached = await caches.match(request, { ignoreVary: true });
  const fresh = fetch(request)
    .then((response) => keep(request, response))
    .catch(() => cached ?? Response.error());
  return cached ?? fresh;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname.startsWith("/campo")) event.respondWith(page(request));
  else if (url.pathname.startsWith("/build/") || SHELL.includes(url.pathname)) event.respondWith(asset(request));
});

self.addEventListener("message", (event) => {
  const urls = (event.data as { guardar?: unknown })?.guardar;
  if (!Array.isArray(urls)) return;
  event.waitUntil(
    Promise.all(
      urls
        .filter((url): url is string => typeof url === "string")
        .map((url) =>
          fetch(url, { credentials: "same-origin" })
            .then((response) => keep(url, response))
            .catch(() => null),
        ),
    ),
  );
});

type SyncEvent = ExtendableEvent & { tag: string };
self.addEventListener("sync", ((event: SyncEvent) => {
  if (event.tag === "campo-fila")
    event.waitUntil(flush().then((result) => (result === "offline" ? Promise.reject() : undefined)));
}) as EventListener);
