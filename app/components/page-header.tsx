import type { ReactNode } from "react";

/** Page title with an optional help text (the spec's tooltips), shown as an accessible disclosure. */
export function PageHeader({ title, help, children }: { title: string; help?: string; children?: ReactNode }) {
  return (
    <header className="page-header">
      {/* The title and its '?' share a line: a long title wraps beside the '?' instead of pushing it under. */}
      <div className="page-title">
        <h1>{title}</h1>
        {help ? (
          <details className="help">
            <summary aria-label={`Ajuda: ${title}`}>?</summary>
            <p>{help}</p>
          </details>
        ) : null}
      </div>
      {children}
    </header>
  );
}
