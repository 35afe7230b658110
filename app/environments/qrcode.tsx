import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useLoaderData } from "@remix-run/react";

import { QrChoice } from "./qr-choice";
import type { environmentQrLoader } from "./qrcode.server";

/**
 * Without JS the QR dialog is this page; with JS the list opens the same choice in a dialog. 'Gerar novo QR code'
 * (those who may edit the room) asks here first, with a plain form, then the action redirects back with a toast.
 */
export default function EnvironmentQrPage() {
  const { environment, step, hrefs, reissue } = useLoaderData<typeof environmentQrLoader>();
  return (
    <section className="card dialog-page" aria-labelledby="qr-title">
      <h2 id="qr-title">QR code: {environment.name}</h2>
      <p className="muted">{environment.empresa}</p>
      {reissue?.confirming ? (
        <section aria-labelledby="reissue-title" className="stack">
          <h3 id="reissue-title">{reissue.texts.action}</h3>
          <p>{reissue.texts.warning}</p>
          <Form method="post" className="confirm">
            <input type="hidden" name="redirectTo" value={reissue.back} />
            <div className="form-actions">
              <Link className="button" to={reissue.cancel}>
                {reissue.texts.cancel}
              </Link>
              <button type="submit" className="button button-danger">
                {reissue.texts.action}
              </button>
            </div>
          </Form>
        </section>
      ) : (
        <QrChoice environment={environment} step={step} hrefs={hrefs} reissueHref={reissue?.href} />
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "QR code do ambiente | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
