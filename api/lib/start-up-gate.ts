import { serve, type ServerType } from "@hono/node-server";

import { noticeResponse } from "./http-guards.ts";

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

export const STARTING_RETRY_AFTER_S = 5;
export const STARTING_MESSAGE = "O sistema está iniciando. Tente novamente em alguns segundos.";

/**
 * The port is open from the first moment of a start (server.ts): while the start-up work runs (opening and migrating
 * the database, demo data, half-written agendas, the PDF workers) every request but /livez answers 503 with
 * Retry-After, the way a stopped database does, instead of being refused or meeting a half-started app; `open` hands
 * the port to the app once it is whole (docs/operations.md 'Start-up').
 */
export async function listenWhileStarting(options: { port: number; host: string }) {
  let app: Fetch | undefined;
  const server: ServerType = await new Promise((resolve) => {
    const instance = serve(
      {
        fetch: (request: Request, env: unknown) => (app ? app(request, env) : startingAnswer(request)),
        port: options.port,
        hostname: options.host,
      },
      () => resolve(instance),
    );
  });
  return {
    server,
    open(fetch: Fetch) {
      app = fetch;
    },
    /** For a start that failed: the port is released. */
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function startingAnswer(request: Request) {
  // Liveness: the process is alive and answering; readiness (/healthz) waits for the app, as everything else does.
  // No connection is kept: the start-up work blocks this thread at times (PGlite runs in it), and a kept-alive
  // connection's idle timer firing late would reset a client's next request instead of answering it.
  if (new URL(request.url).pathname === "/livez") {
    return Response.json({ status: "starting" }, { headers: { connection: "close" } });
  }
  return noticeResponse(request, 503, "Sistema iniciando", STARTING_MESSAGE, {
    "retry-after": String(STARTING_RETRY_AFTER_S),
    connection: "close",
  });
}
