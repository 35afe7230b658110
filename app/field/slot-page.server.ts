import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { idParam } from "~/lib/list-params";
import { getFieldRoom, getFieldSlot } from "~/models/field.server";
import { redirectWithToast } from "~/toast.server";

import { fieldReturnPath, fieldSignOutOnUnauthorized, requireFieldUser } from "./field-session.server";
import { runFieldStep, STEP_DONE } from "./steps.server";

const NOT_FOUND = "Limpeza não encontrada";

/** /campo/limpeza/{id}: one slot of the caller's, with its room's procedures (docs/field-app.md 'Pages'). */
export async function slotPageLoader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireFieldUser(request, context);
  const bookingId = idParam(params.id, NOT_FOUND);
  const api = { context, request, auth: { token: user.token } };
  const slot = await getFieldSlot(api, bookingId);
  if (!slot.ok) {
    await fieldSignOutOnUnauthorized(request, context, slot.status);
    throw new Response(slot.status === 404 ? NOT_FOUND : slot.message, { status: slot.status });
  }
  const room = await getFieldRoom(api, slot.data.environmentId, null);
  if (!room.ok) {
    await fieldSignOutOnUnauthorized(request, context, room.status);
    throw new Response(room.message, { status: room.status });
  }
  return { slot: slot.data, room: room.data };
}

/**
 * Every step form of the field pages posts here, with or without JS: the step goes to the execution API and the
 * cleaner comes back to the page they were on (`voltar`), with the step's message.
 */
export async function slotPageAction({ request, context, params }: ActionFunctionArgs) {
  const user = await requireFieldUser(request, context);
  const bookingId = idParam(params.id, NOT_FOUND);
  const form = await request.formData();
  const back = fieldReturnPath(form.get("voltar") ?? `/campo/limpeza/${bookingId}`);
  const outcome = await runFieldStep({ request, context, user }, bookingId, form);
  if (!outcome.ok) {
    await fieldSignOutOnUnauthorized(request, context, outcome.status);
    return redirectWithToast(context, back, { type: "error", title: outcome.message });
  }
  const step = String(form.get("step")) as keyof typeof STEP_DONE;
  return redirectWithToast(context, back, { type: "success", title: STEP_DONE[step] });
}
