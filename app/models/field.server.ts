import { ExecutionSlot } from "../../api/routes/execution";
import { FieldDay, FieldRoom } from "../../api/routes/field";
import { SessionAnswer } from "../../api/routes/sessions";

import { callApi, type ApiCaller } from "~/api.server";

/** The field app's calls (docs/field-app.md 'Calls'): its sign-in, the day, a room, and the execution steps. */
type Authed = ApiCaller & { auth: { token: string } };

export function createFieldApiSession(api: ApiCaller, credentials: { email: string; password: string }) {
  return callApi(api, "/sessions/campo", { method: "POST", json: credentials, schema: SessionAnswer });
}

export function getFieldDay(api: Authed) {
  return callApi(api, "/execution/today", { schema: FieldDay });
}

export function getFieldRoom(api: Authed, environmentId: number, qr: string | null) {
  return callApi(api, `/execution/environments/${environmentId}`, { query: { qr }, schema: FieldRoom });
}

export function getFieldSlot(api: Authed, bookingId: number) {
  return callApi(api, `/execution/bookings/${bookingId}`, { schema: ExecutionSlot });
}

/** The steps of a slot, each one execution call (docs/scheduling.md 'History and the execution API'). */
export const FIELD_STEPS = ["start", "procedure", "remaining", "finish", "incomplete"] as const;
export type FieldStep = (typeof FIELD_STEPS)[number];

export type FieldStepInput = {
  bookingId: number;
  step: FieldStep;
  /** The instant the cleaner did it, from the phone (ISO); the API decides what to keep (docs/field-app.md 'Instants'). */
  feitoEm?: string;
  qr?: string;
  procedureId?: number;
  observacao?: string;
  photo?: File;
  justificativa?: string;
  /** The phone's key for this record: a resend records once (docs/field-app.md 'Offline'). */
  idempotencyKey?: string;
};

export function sendFieldStep(api: Authed, input: FieldStepInput) {
  const headers = input.idempotencyKey ? { "idempotency-key": input.idempotencyKey } : undefined;
  const base = `/execution/bookings/${input.bookingId}`;
  const instant = input.feitoEm ? { feitoEm: input.feitoEm } : {};
  switch (input.step) {
    case "start":
      return callApi(api, `${base}/start`, {
        method: "POST",
        headers,
        json: { ...instant, ...(input.qr ? { qr: input.qr } : {}) },
        schema: ExecutionSlot,
      });
    case "procedure": {
      const form = new FormData();
      form.set("procedureId", String(input.procedureId ?? ""));
      if (input.observacao) form.set("observacao", input.observacao);
      if (input.photo) form.set("photo", input.photo);
      if (input.feitoEm) form.set("feitoEm", input.feitoEm);
      return callApi(api, `${base}/procedures`, { method: "POST", headers, formData: form });
    }
    case "remaining":
      return callApi(api, `${base}/procedures/remaining`, { method: "POST", headers, json: instant });
    case "finish":
      return callApi(api, `${base}/finish`, { method: "POST", headers, json: instant });
    case "incomplete":
      return callApi(api, `${base}/incomplete`, {
        method: "POST",
        headers,
        json: { ...instant, justificativa: input.justificativa ?? "" },
      });
  }
}
