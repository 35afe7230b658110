import type { ReactNode } from "react";

/** Page title with an optional help text (the spec's tooltips), shown as an accessible disclosure. */
export function PageHeader({ title, help, children }: { title: string; help?: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {help ? (
        <details className="help">
          <summary aria-label={`Ajuda: ${title}`}>?</summary>
          <p>{help}</p>
        </details>
      ) : null}
      {children}
    </header>
  );
}
