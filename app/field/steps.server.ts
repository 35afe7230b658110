import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";

import { PHOTO_MAX_BYTES } from "../../api/services/execution";
import { reencodedUpload } from "../../api/services/images";

import type { ApiFailure } from "~/api.server";
import { FIELD_STEPS, sendFieldStep, type FieldStepInput } from "~/models/field.server";

import type { FieldUser } from "./field-session.server";

/**
 * One step of a slot as the field pages post it, with JS or without: the same fields either way, so a form the
 * phone queued offline (docs/field-app.md 'Offline') is the form a page without JS sends, plus its key.
 */
const StepForm = z.object({
  step: z.enum(FIELD_STEPS, { error: "Ação desconhecida." }),
  feitoEm: z.string().max(40).optional(),
  qr: z.string().max(40).optional(),
  procedureId: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  observacao: z.string().max(1000, "A observação pode ter no máximo 1000 caracteres.").optional(),
  justificativa: z.string().max(2000).optional(),
});

/** The longest side a photo keeps when the phone sent it whole (no JS to shrink it first): what a report shows. */
const PHOTO_MAX_SIDE = 1600;

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_\-:.]{1,100}$/;

export type StepOutcome = { ok: true } | ApiFailure;

/**
 * A photo over the API's limit comes from a phone without JS (with JS the phone shrinks it): it is shrunk here with
 * the API's own image path, so the cleaner's picture is kept rather than refused.
 */
async function fittedPhoto(file: File) {
  if (file.size <= PHOTO_MAX_BYTES) return file;
  try {
    const bytes = await reencodedUpload(new Uint8Array(await file.arrayBuffer()), { maxSide: PHOTO_MAX_SIDE });
    return new File([bytes as Uint8Array<ArrayBuffer>], "foto.jpg", { type: "image/jpeg" });
  } catch {
    return file; // not an image: the API answers its own refusal
  }
}

const fieldText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
};

export async function runFieldStep(
  { request, context, user }: { request: Request; context: AppLoadContext; user: FieldUser },
  bookingId: number,
  form: FormData,
): Promise<StepOutcome> {
  const parsed = StepForm.safeParse({
    step: fieldText(form, "step"),
    feitoEm: fieldText(form, "feitoEm"),
    qr: fieldText(form, "qr"),
    procedureId: fieldText(form, "procedureId"),
    observacao: fieldText(form, "observacao"),
    justificativa: form.get("justificativa") ?? undefined,
  });
  if (!parsed.success) return { ok: false, status: 400, message: parsed.error.issues[0].message };
  const photoEntry = form.get("photo");
  const photo = photoEntry instanceof File && photoEntry.size > 0 ? await fittedPhoto(photoEntry) : undefined;
  const key = request.headers.get("idempotency-key") ?? fieldText(form, "chave");
  const input: FieldStepInput = {
    bookingId,
    ...parsed.data,
    photo,
    idempotencyKey: key && IDEMPOTENCY_KEY.test(key) ? key : undefined,
  };
  const result = await sendFieldStep({ context, request, auth: { token: user.token } }, input);
  return result.ok ? { ok: true } : result;
}

/** What each step says when it went through (the page's flash message). */
export const STEP_DONE: Record<(typeof FIELD_STEPS)[number], string> = {
  start: "Limpeza iniciada.",
  procedure: "Procedimento registrado.",
  remaining: "Todos os procedimentos registrados.",
  finish: "Limpeza finalizada.",
  incomplete: "Limpeza registrada como não concluída.",
};
