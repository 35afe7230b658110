import { Link, useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";

import { Modal } from "~/components/modal";
import { useHydrated } from "~/lib/use-hydrated";

import type { DialogPagerState } from "./report-links";

/**
 * A report's drill-down level (issue 23 §1): its own route and URL; with JS a dialog over the list, without JS a
 * section above it. 'Voltar' goes one level up, 'Ok' back to the list as it was (the list's query travels along).
 */
export function ReportDialog({
  title,
  subtitle,
  back,
  close,
  children,
}: {
  title: string;
  subtitle?: string;
  /** One level up. */
  back: string;
  /** The list. */
  close: string;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const actions = (
    <div className="form-actions">
      {back !== close ? (
        <Link to={back} className="button" preventScrollReset>
          Voltar
        </Link>
      ) : null}
      <Link to={close} className="button button-primary" preventScrollReset>
        Ok
      </Link>
    </div>
  );
  if (hydrated)
    return (
      <Modal title={title} subtitle={subtitle} onClose={() => navigate(close, { preventScrollReset: true })}>
        <div className="report-dialog">{children}</div>
        {actions}
      </Modal>
    );
  return (
    <section className="card dialog-page report-dialog" aria-labelledby="report-dialog-title" id="detalhe">
      <h2 id="report-dialog-title">{title}</h2>
      {subtitle ? <p className="muted">{subtitle}</p> : null}
      {children}
      {actions}
    </section>
  );
}

/** A drill-down's pager ('Página x de y (n unit)', previous and next), drawn only when there is more than one page. */
export function DialogPager({ pager, label, unit }: { pager: DialogPagerState; label: string; unit: string }) {
  if (pager.pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <p className="muted pager-summary">
        Página {pager.page} de {pager.pages} ({pager.total} {unit})
      </p>
      <ul>
        {pager.previous ? (
          <li>
            <Link to={pager.previous} preventScrollReset aria-label="Página anterior">
              ‹
            </Link>
          </li>
        ) : null}
        {pager.next ? (
          <li>
            <Link to={pager.next} preventScrollReset aria-label="Próxima página">
              ›
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
