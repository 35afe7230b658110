import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

/** A native modal dialog (JS only: pages that show one have a plain-page route for when JS is off). */
export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="modal dialog" aria-labelledby="modal-title" onClose={onClose} onCancel={onClose}>
      <h2 id="modal-title">{title}</h2>
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
