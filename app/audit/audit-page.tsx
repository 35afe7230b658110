import { Form, Link, Outlet, useLoaderData } from "@remix-run/react";

import { AUDIT_TEXTS } from "../../api/domain/audit";

import { PageHeader } from "~/components/page-header";
import { PeriodFields } from "~/reports/period-fields";

import { AuditChart } from "./audit-chart";
import type { auditPageLoader } from "./audit-page.server";

/**
 * /auditoria (spec 001 §2.13): the toolbar (remove filters while one is active, font − and +, 'Filtros', the period
 * bar shown or hidden), the period in words, and the enabled boards' charts in board order. Every control is a link
 * or a GET form, so the page works without JS and its URL holds the whole view.
 */
export default function AuditPage() {
  const { periodo, period, notice, state, charts, links, hidden } = useLoaderData<typeof auditPageLoader>();
  return (
    <>
      <PageHeader title={AUDIT_TEXTS.title} help={AUDIT_TEXTS.tooltip}>
        <a className="button" href={links.pdf}>
          Exportar PDF
        </a>
        <a className="button" href={links.excel}>
          Exportar Excel
        </a>
      </PageHeader>
      <Outlet />
      <nav className="audit-toolbar" aria-label="Ferramentas da auditoria">
        {links.clear ? (
          <Link className="button" to={links.clear}>
            Remover filtros
          </Link>
        ) : null}
        <span className="audit-font" role="group" aria-label={`Tamanho da fonte dos gráficos: ${state.fonte}`}>
          <ToolLink to={links.smaller} label="Diminuir a fonte">
            A−
          </ToolLink>
          <span aria-hidden="true">{state.fonte}</span>
          <ToolLink to={links.larger} label="Aumentar a fonte">
            A+
          </ToolLink>
        </span>
        <Link className="button button-primary" to={links.filters} preventScrollReset>
          Filtros
        </Link>
        <Link className="button" to={links.dates} aria-expanded={state.datas}>
          {state.datas ? "Ocultar período" : "Mostrar período"}
        </Link>
      </nav>
      {state.datas ? (
        <Form
          // Drawn anew for each period shown: after a refused period the fields show the one gone back to.
          key={`${period.from}-${period.to}`}
          method="get"
          className="list-search audit-period"
          role="search"
          aria-label="Período"
        >
          {hidden.map(([name, value], index) => (
            <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
          ))}
          <PeriodFields from={period.from} to={period.to} />
          <button type="submit" className="button">
            Buscar
          </button>
        </Form>
      ) : null}
      <h2 className="audit-period-title" aria-live="polite">
        {periodo}
      </h2>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {charts.length === 0 ? (
        <p className="empty-state">Nenhum quadro de auditoria está habilitado para a empresa.</p>
      ) : (
        <div className="audit-grid">
          {charts.map(({ chart, svg }) => (
            <AuditChart key={chart.board} chart={chart} svg={svg} fontSize={state.fonte} />
          ))}
        </div>
      )}
    </>
  );
}

/** A toolbar link, shown disabled (a span) at its bound. */
function ToolLink({ to, label, children }: { to: string | null; label: string; children: string }) {
  if (!to)
    return (
      <span className="button" aria-disabled="true" aria-label={label}>
        {children}
      </span>
    );
  return (
    <Link className="button" to={to} aria-label={label} preventScrollReset>
      {children}
    </Link>
  );
}
