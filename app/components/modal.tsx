import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/**
 * A native modal dialog (JS only: pages that show one have a plain-page route for when JS is off). It names its
 * subject in the title (and `subtitle`, e.g. the item's branch), and when it closes, however it closes, focus goes
 * back to the control that opened it (the element focused when it mounted), if that control is still on the page.
 */
export function Modal({
  title,
  subtitle,
  onClose,
  children,
}: {
  title: string;
  subtitle?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (element && !element.open) element.showModal();
    return () => {
      element?.close();
      // After React's commit: the opener may have been re-rendered, but the same element stays when it still exists.
      requestAnimationFrame(() => {
        if (opener?.isConnected && !document.querySelector("dialog[open]")) opener.focus();
      });
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className="modal dialog"
      aria-labelledby="modal-title"
      aria-describedby={subtitle ? "modal-subtitle" : undefined}
      onClose={onClose}
      onCancel={onClose}
    >
      <h2 id="modal-title">{title}</h2>
      {subtitle ? (
        <p id="modal-subtitle" className="muted modal-subtitle">
          {subtitle}
        </p>
      ) : null}
      {children}
    </dialog>
  );
}

/** 'Tem certeza que deseja remover?' with Sim (posts the removal) and Não. */
export function ConfirmRemoval({
  action,
  redirectTo,
  onCancel,
  cancelHref,
}: {
  action: string;
  redirectTo: string;
  onCancel?: () => void;
  cancelHref?: string;
}) {
  return (
    <Form method="post" action={action} className="confirm">
      <p>Tem certeza que deseja remover?</p>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <div className="form-actions">
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Não
          </button>
        ) : (
          <Link className="button" to={cancelHref ?? "/"}>
            Não
          </Link>
        )}
        <button type="submit" className="button button-danger">
          Sim
        </button>
      </div>
    </Form>
  );
}
