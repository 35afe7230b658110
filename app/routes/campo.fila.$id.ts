/**
 * /campo/fila/{id}: where the phone's queue sends a step it kept (docs/field-app.md 'Offline'): the same fields as
 * the step forms, with the record's Idempotency-Key, answered in JSON so the queue knows to drop, keep or retry it.
 */
import type { ActionFunctionArgs } from "@remix-run/node";

import { getFieldUser } from "~/field/field-session.server";
import { runFieldStep } from "~/field/steps.server";
import { idParam } from "~/lib/list-params";

export const loader = () => new Response("Método não permitido", { status: 405 });

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await getFieldUser(request, context);
  if (!user) return Response.json({ message: "Sessão expirada. Entre novamente para enviar." }, { status: 401 });
  const bookingId = idParam(params.id, "Limpeza não encontrada");
  const outcome = await runFieldStep({ request, context, user }, bookingId, await request.formData());
  if (outcome.ok) return Response.json({ ok: true });
  // Retry-After tells the queue to keep the record and send it again later (docs/field-app.md 'Offline').
  const headers = outcome.retryAfter ? { "retry-after": outcome.retryAfter } : undefined;
  return Response.json({ message: outcome.message }, { status: outcome.status, headers });
}
