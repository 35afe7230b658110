import { PassThrough } from "node:stream";

import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";

import { NonceProvider } from "./lib/nonce";

/** How long a streamed answer may wait for deferred data (single fetch reads this export). */
export const streamTimeout = 5_000;

/**
 * Pages show a signed-in user's data: neither the browser's back-forward cache of a shared computer nor a proxy
 * may keep them. A route that is public and cacheable (the room page) sets its own Cache-Control.
 */
function noStoreUnlessSet(headers: Headers) {
  if (!headers.has("cache-control")) headers.set("cache-control", "private, no-store");
}

/** The same for the data requests of client-side navigations. */
export function handleDataRequest(response: Response) {
  noStoreUnlessSet(response.headers);
  return response;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce;
  // Bots and no-JS clients get the whole document at once; browsers get it streamed as soon as the shell is ready.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          body.once("close", () => clearTimeout(abortTimer));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          noStoreUnlessSet(responseHeaders);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    // Let the stream's own timeout reject pending promises first, then stop rendering. A finished render clears it:
    // aborting a finished render costs an error object, and every answer kept a 6 s timer alive.
    const abortTimer = setTimeout(abort, streamTimeout + 1_000);
  });
}
