import type { LoaderFunctionArgs } from "@remix-run/node";

import { idParam, textParam } from "~/lib/list-params";
import { getFieldRoom } from "~/models/field.server";

import { fieldSignOutOnUnauthorized, requireFieldUser } from "./field-session.server";

const NOT_FOUND = "Ambiente não encontrado";

/**
 * /campo/ambiente/{id}?qr=…: the room a cleaner scanned (docs/field-app.md 'Pages'): their slots there today, the
 * current one ready to start with the QR value it was opened with (the proof that they stood in the room).
 */
export async function fieldRoomLoader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireFieldUser(request, context);
  const id = idParam(params.id, NOT_FOUND);
  const url = new URL(request.url);
  const qr = textParam(url.searchParams.get("qr"), 40) || null;
  const room = await getFieldRoom({ context, request, auth: { token: user.token } }, id, qr);
  if (!room.ok) {
    await fieldSignOutOnUnauthorized(request, context, room.status);
    throw new Response(room.status === 404 ? NOT_FOUND : room.message, { status: room.status });
  }
  return { room: room.data, qr, back: `${url.pathname}${url.search}` };
}
