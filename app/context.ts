import type { PdfRenderer } from "../api/domain/pdf";

/** What server.ts hands every loader and action (Remix's load context). */
export type AppContext = {
  /** The in-process REST API (a fetch handler); used when apiUrl is unset. */
  api: (request: Request) => Response | Promise<Response>;
  apiUrl?: string;
  /** The public origin of this request (PUBLIC_URL, the proxy's or its own): the base of links that leave the app. */
  publicUrl?: string;
  /**
   * The server's PDF pool (api/lib/pdf-pool.ts): pdfmake documents built in worker threads, off the event loop.
   * Routes answer with app/lib/pdf.server.ts `pdfResponse`, which turns the pool's refusals into 503 pages.
   */
  pdf: PdfRenderer;
  requestId: string;
  nonce: string;
  secureCookies: boolean;
  sessionSecret: string;
  /**
   * Set only by the export runner (server.ts), never from a request: this request is a queued export run later as its
   * requester, with a session token made for the run (app/lib/export-jobs.server.ts, docs/exports.md).
   */
  exportJob?: { id: number; token: string };
  /** How long a download request waits for its export job before it goes to the progress page (EXPORT_WAIT_MS). */
  exportWaitMs?: number;
};

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}

declare module "@remix-run/node" {
  /** Loaders' data types as single fetch sends them (turbo-stream), for useLoaderData<typeof loader>. */
  interface Future {
    v3_singleFetch: true;
  }
}
