import type { ReactNode } from "react";

/** The frame of the signed-out pages: brand, a card with the form, footer. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand">
          <img src="/logo.svg" alt="" width={40} height={40} /> <span>Limpeza</span>
        </p>
        <h1>{title}</h1>
        {children}
      </div>
      <footer className="auth-footer">© {new Date().getFullYear()} Limpeza · gestão de limpeza e inspeção</footer>
    </main>
  );
}
