import { useEffect, useState } from "react";

/** 'Sem Conexão' while the browser is offline (needs JS: without it there is nothing to watch). */
export function OfflineModal() {
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  if (!offline) return null;
  return (
    <div className="modal-backdrop">
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="offline-title"
        aria-describedby="offline-text"
      >
        <h2 id="offline-title">Sem Conexão</h2>
        <p id="offline-text">Por favor, se conecte para ter acesso ao sistema.</p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Recarregar
        </button>
      </div>
    </div>
  );
}
