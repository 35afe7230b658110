import type { IncomingMessage, Server } from "node:http";

/**
 * The requests a server is answering, for a stop that is graceful and says why when it is not (server.ts, README
 * 'Production', SHUTDOWN_GRACE). Tracked on the Node server itself, from the request to its response's end: a download
 * still streaming counts as running.
 */
export type RunningRequest = { method: string; path: string; ms: number };

export function trackRequests(server: Server) {
  const running = new Map<IncomingMessage, { method: string; path: string; since: number }>();
  let draining = false;
  server.on("request", (request: IncomingMessage, response) => {
    running.set(request, {
      method: request.method ?? "?",
      // The path alone: a query may hold personal data, and this goes to the log.
      path: (request.url ?? "").split("?")[0]!.slice(0, 200),
      since: performance.now(),
    });
    response.once("close", () => {
      running.delete(request);
      // A keep-alive connection whose last request was just served would hold server.close() until its idle timeout.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  return {
    /** Stops accepting connections; resolves once every running request is answered and its connection closed. */
    drain() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      return closed;
    },
    running(): RunningRequest[] {
      const now = performance.now();
      return [...running.values()].map(({ method, path, since }) => ({ method, path, ms: Math.round(now - since) }));
    },
  };
}
