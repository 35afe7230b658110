import { safeRedirectTo } from "~/session.server";

import { requireEnvironment, type EnvironmentArgs } from "./environment.server";
import type { QrStep } from "./qr-choice";

/** /ambientes/:id/qrcode: the QR modal as a page (without JS); ?tipo=imagem is its second step, the image formats. */
export async function environmentQrLoader(args: EnvironmentArgs) {
  const { environment } = await requireEnvironment(args, { forEdit: false });
  const url = new URL(args.request.url);
  const back = safeRedirectTo(url.searchParams.get("redirectTo"), "/ambientes");
  const step: QrStep = url.searchParams.get("tipo") === "imagem" ? "imagem" : "tipo";
  const self = (query: Record<string, string>) =>
    `/ambientes/${environment.id}/qrcode?${new URLSearchParams({ ...query, redirectTo: back })}`;
  return {
    environment: { id: environment.id, name: environment.name, empresa: environment.empresa },
    step,
    hrefs: { image: self({ tipo: "imagem" }), choice: self({}), out: back },
  };
}
