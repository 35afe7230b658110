import { useLoaderData } from "@remix-run/react";

import { useNonce } from "~/lib/nonce";

import { ROOM_CSS } from "./room-page";
import type { thanksLoader } from "./thanks.server";

/** The thank-you page (thanks.server.ts): the room page's look, a line on what happens next, the way back. */
export default function Thanks() {
  const page = useLoaderData<typeof thanksLoader>();
  const nonce = useNonce();
  return (
    <>
      <style nonce={nonce} dangerouslySetInnerHTML={{ __html: ROOM_CSS }} />
      <header>
        <h1>{page.title}</h1>
      </header>
      <main>
        <p className="visitor">{page.next}</p>
        <p>
          <a className="send" href={page.roomHref}>
            {page.back}
          </a>
        </p>
      </main>
    </>
  );
}
