import { useNavigation } from "@remix-run/react";

/** Full-screen 'Carregando...' while a navigation or submission runs (spec 000 §1); its dots change at 2, 4.1 and 6.2 s. */
export function LoadingOverlay() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div className="loading-overlay" role="status" aria-live="assertive">
      <div className="loading-box">
        <span className="loading-spinner" aria-hidden="true" />
        <p>Carregando...</p>
      </div>
    </div>
  );
}
