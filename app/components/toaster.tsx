import { useEffect, useId, useState } from "react";

import { useHydrated } from "~/lib/use-hydrated";
import type { Toast } from "~/toast.server";

export const TOAST_DURATION_MS = 5_000;

/** The flash toast of this page (from the root loader); each new toast starts its own 5 s. */
export function Toaster({ toast }: { toast: Toast | null }) {
  if (!toast) return null;
  return <ToastView key={toast.id} toast={toast} />;
}

/**
 * One toast (STYLE.md 7a), every kind alike: with JS it closes itself after 5 s (paused while the pointer or the
 * focus is on it) and by its × button. Without JS the × is a tick box over the sign: ticking it hides the toast with
 * CSS alone. Wide screens show it at the top right under the top bar; phones keep it in the page's flow, so it covers
 * no control (app.css). A new toast object (a new answer, a new failed submit) shows again.
 */
export function ToastView({ toast }: { toast: Omit<Toast, "id"> }) {
  const hydrated = useHydrated();
  const dismissId = useId();
  const [open, setOpen] = useState(true);
  const [paused, setPaused] = useState(false);
  useEffect(() => setOpen(true), [toast]);
  useEffect(() => {
    if (!open || paused) return;
    const timer = setTimeout(() => setOpen(false), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast, open, paused]);
  if (!open) return null;
  return (
    <div
      className="toast-region"
      aria-live="polite"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      {hydrated ? null : (
        <input
          type="checkbox"
          id={dismissId}
          className="toast-dismiss"
          aria-label="Fechar aviso"
          title="Fechar aviso"
        />
      )}
      <div className={`toast toast-${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
        <div className="toast-text">
          <p className="toast-title">{toast.title}</p>
          {toast.description ? <p className="toast-description">{toast.description}</p> : null}
        </div>
        {hydrated ? (
          <button type="button" className="toast-close" onClick={() => setOpen(false)} aria-label="Fechar aviso">
            ×
          </button>
        ) : (
          <span className="toast-close" aria-hidden="true">
            ×
          </span>
        )}
      </div>
    </div>
  );
}
