import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
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

/**
 * What React's pipe() writes a finished render into: the chunks, joined into one buffer at the end. React needs
 * only write, end and on (it listens for drain, error and close); a stream.Writable would add its own buffering,
 * and its 'close' would make React end it a second time, an error object built on every page.
 */
function pageBuffer(done: (page: Uint8Array<ArrayBuffer>) => void) {
  const chunks: Uint8Array[] = [];
  const destination = {
    write(chunk: Uint8Array) {
      chunks.push(chunk);
      return true;
    },
    end() {
      done(Buffer.concat(chunks) as Uint8Array<ArrayBuffer>);
    },
    on() {
      return destination;
    },
  };
  return destination as unknown as NodeJS.WritableStream;
}

/**
 * The page is rendered whole, then sent as one buffer. The compression (api/lib/compression.ts) gzips whole bodies,
 * so streaming the shell first gained a browser nothing, and reading a stream chunk by chunk cost more than one
 * buffer (docs/performance.md 'The render path'). Every visitor gets what bots got before: the status code is
 * known once the whole page has rendered.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.nonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          clearTimeout(abortTimer);
          pipe(
            pageBuffer((page) => {
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              noStoreUnlessSet(responseHeaders);
              resolve(new Response(page, { headers: responseHeaders, status: responseStatusCode }));
            }),
          );
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
    // Let the stream's own timeout reject pending promises first, then stop rendering (what is left renders in the
    // browser). A finished render clears it.
    const abortTimer = setTimeout(abort, streamTimeout + 1_000);
  });
}
