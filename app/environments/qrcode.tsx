import type { MetaFunction } from "@remix-run/react";
import { useLoaderData } from "@remix-run/react";

import { QrChoice } from "./qr-choice";
import type { environmentQrLoader } from "./qrcode.server";

/** Without JS the QR dialog is this page; with JS the list opens the same choice in a dialog. */
export default function EnvironmentQrPage() {
  const { environment, step, hrefs } = useLoaderData<typeof environmentQrLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="qr-title">
      <h2 id="qr-title">QR code: {environment.name}</h2>
      <p className="muted">{environment.empresa}</p>
      <QrChoice environment={environment} step={step} hrefs={hrefs} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "QR code do ambiente | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
