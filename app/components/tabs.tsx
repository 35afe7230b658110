import type { ReactNode } from "react";

/** A page's tabs (nested routes as links): a module of its own, so a page with tabs but no list loads no list code. */
export function Tabs({ children }: { children: ReactNode }) {
  return (
    <nav className="tabs" aria-label="Abas">
      {children}
    </nav>
  );
}
