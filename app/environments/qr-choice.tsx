import { Link } from "@remix-run/react";

import { QR_IMAGE_CHOICES, QR_REISSUE_TEXTS, qrDownloadHref } from "./links";

export type QrStep = "tipo" | "imagem";

/**
 * The QR modal's content (spec 000 §2, §4): first PDF or image, then the image's format (JPEG, PNG, SVG); 'Voltar'
 * goes from the formats back to the first choice, and from there out. The downloads are plain links, so they work
 * the same in the dialog (JS) and on the page (no JS); only the step changes are buttons or links.
 */
export function QrChoice({
  environment,
  step,
  onStep,
  onBack,
  hrefs,
  reissueHref,
}: {
  environment: { id: number; name: string };
  step: QrStep;
  /** With JS: switch steps in place. Without: `hrefs` link to the page's other step and out. */
  onStep?: (step: QrStep) => void;
  onBack?: () => void;
  hrefs?: { image: string; choice: string; out: string };
  /** For those who may edit the room: the QR page's 'Gerar novo QR code' step (it asks before doing it). */
  reissueHref?: string;
}) {
  const back = () => (step === "imagem" ? onStep?.("tipo") : onBack?.());
  return (
    <div className="qr-choice stack">
      <img
        className="qr-preview"
        src={qrDownloadHref(environment.id, "svg")}
        alt={`QR code de ${environment.name}`}
        width={160}
        height={160}
      />
      {step === "tipo" ? (
        <div className="qr-options" role="group" aria-label="Baixar QR code como">
          <a className="button button-primary" href={qrDownloadHref(environment.id, "pdf")} download>
            PDF
          </a>
          {onStep ? (
            <button type="button" className="button" onClick={() => onStep("imagem")}>
              Imagem
            </button>
          ) : (
            <Link className="button" to={hrefs?.image ?? "?tipo=imagem"}>
              Imagem
            </Link>
          )}
        </div>
      ) : (
        <div className="qr-options" role="group" aria-label="Formato da imagem">
          {QR_IMAGE_CHOICES.map((choice) => (
            <a
              key={choice.format}
              className="button button-primary"
              href={qrDownloadHref(environment.id, choice.format)}
              download
            >
              {choice.label}
            </a>
          ))}
        </div>
      )}
      {reissueHref && step === "tipo" ? (
        <p>
          <Link to={reissueHref}>{QR_REISSUE_TEXTS.action}</Link>
        </p>
      ) : null}
      <div className="form-actions">
        {onStep ? (
          <button type="button" className="button" onClick={back}>
            Voltar
          </button>
        ) : (
          <Link className="button" to={(step === "imagem" ? hrefs?.choice : hrefs?.out) ?? "/ambientes"}>
            Voltar
          </Link>
        )}
      </div>
    </div>
  );
}
