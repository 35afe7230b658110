import { useEffect, useState } from "react";

import type { Toast } from "~/toast.server";

const AUTO_DISMISS_MS = 5_000;

/** The flash toast of this page. Without JS it stays until the next page; with JS it leaves after 5 s. */
export function Toaster({ toast }: { toast: Toast | null }) {
  const [visible, setVisible] = useState<Toast | null>(toast);
  useEffect(() => {
    setVisible(toast);
    if (!toast) return;
    const timer = setTimeout(() => setVisible(null), AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  if (!visible) return null;
  return <ToastView toast={visible} onClose={() => setVisible(null)} />;
}

export function ToastView({ toast, onClose }: { toast: Omit<Toast, "id">; onClose?: () => void }) {
  return (
    <div className="toast-region" aria-live="polite">
      <div className={`toast toast-${toast.type}`} role={toast.type === "error" ? "alert" : "status"}>
        <div>
          <p className="toast-title">{toast.title}</p>
          {toast.description ? <p className="toast-description">{toast.description}</p> : null}
        </div>
        {onClose ? (
          <button type="button" className="toast-close" onClick={onClose} aria-label="Fechar aviso">
            ×
          </button>
        ) : null}
      </div>
    </div>
  );
}
