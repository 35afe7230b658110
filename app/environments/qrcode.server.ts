import { ENVIRONMENT_TEXTS as T } from "../../api/domain/environments";

import { invariantResponse } from "~/lib/invariant";
import { reissueEnvironmentQr } from "~/models/environments.server";
import { safeRedirectTo, signOutOnUnauthorized } from "~/session.server";
import { redirectWithToast } from "~/toast.server";

import { environmentIdOf, requireEnvironment, requireEnvironments, type EnvironmentArgs } from "./environment.server";
import { QR_REISSUE_TEXTS as R } from "./links";
import type { QrStep } from "./qr-choice";

/** The QR page's address for a step, keeping where 'Voltar' leads. */
const qrPageHref = (id: number, back: string, query: Record<string, string> = {}) =>
  `/ambientes/${id}/qrcode?${new URLSearchParams({ ...query, redirectTo: back })}`;

/**
 * /ambientes/:id/qrcode: the QR modal as a page (without JS); ?tipo=imagem is its second step, the image formats;
 * ?etapa=reemitir asks before 'Gerar novo QR code' (those who may edit the room only; others see the first step).
 */
export async function environmentQrLoader(args: EnvironmentArgs) {
  const { environment, canEdit } = await requireEnvironment(args, { forEdit: false });
  const url = new URL(args.request.url);
  const back = safeRedirectTo(url.searchParams.get("redirectTo"), "/ambientes");
  const step: QrStep = url.searchParams.get("tipo") === "imagem" ? "imagem" : "tipo";
  const self = (query: Record<string, string>) => qrPageHref(environment.id, back, query);
  return {
    environment: { id: environment.id, name: environment.name, empresa: environment.empresa },
    step,
    hrefs: { image: self({ tipo: "imagem" }), choice: self({}), out: back },
    reissue: canEdit
      ? {
          confirming: url.searchParams.get("etapa") === "reemitir",
          href: self({ etapa: "reemitir" }),
          cancel: self({}),
          back,
          texts: R,
        }
      : null,
  };
}

/**
 * 'Gerar novo QR code' confirmed: the API retires the printed code's value and makes a new one; back to the QR page
 * (its preview and downloads now hold the new value) with a toast that says to print it.
 */
export async function environmentQrAction(args: EnvironmentArgs) {
  const { api, canEdit } = await requireEnvironments(args);
  invariantResponse(canEdit, "Permissão negada!", { status: 403 });
  const id = environmentIdOf(args.params);
  const back = safeRedirectTo((await args.request.formData()).get("redirectTo"), "/ambientes");
  const result = await reissueEnvironmentQr(api, id);
  if (!result.ok) {
    await signOutOnUnauthorized(args.request, args.context, result.status);
    invariantResponse(result.status !== 404, T.notFound, { status: 404 });
    return redirectWithToast(args.context, qrPageHref(id, back), {
      type: "error",
      title: R.failed,
      description: result.message,
    });
  }
  return redirectWithToast(args.context, qrPageHref(id, back), {
    type: "success",
    title: R.done,
    description: R.doneDescription,
  });
}
