import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";

import { Modal } from "~/components/modal";
import { useHydrated } from "~/lib/use-hydrated";

import type { detailLoader } from "./detail.server";

/**
 * The schedule detail (spec 001 §2.7) with the schedule history (§2.8) as a second tab. With JS it is a dialog over
 * the board (this route renders in the board's <Outlet />); without JS, the same content as a section above the board's
 * end, with a link back. Both tabs are links, so either works without JS.
 */
export default function ScheduleDetail() {
  const detail = useLoaderData<typeof detailLoader>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const body = <DetailBody detail={detail} />;
  if (hydrated)
    return (
      <Modal
        title={detail.title}
        subtitle={detail.subtitle}
        onClose={() => navigate(detail.voltar, { preventScrollReset: true })}
      >
        {body}
        <div className="form-actions">
          <Link to={detail.voltar} className="button" preventScrollReset>
            Fechar
          </Link>
        </div>
      </Modal>
    );
  return (
    <section className="card dialog-page schedule-detail" aria-labelledby="detail-title" id="detalhe">
      <h2 id="detail-title">{detail.title}</h2>
      <p className="muted">{detail.subtitle}</p>
      {body}
      <p>
        <Link to={detail.voltar} className="button">
          Voltar
        </Link>
      </p>
    </section>
  );
}

function DetailBody({ detail }: { detail: ReturnType<typeof useLoaderData<typeof detailLoader>> }) {
  const T = detail.texts;
  return (
    <>
      <nav className="tabs" aria-label="Detalhe do agendamento">
        <TabLink to={detail.tabHrefs.detalhes} current={detail.aba === "detalhes"}>
          Detalhes
        </TabLink>
        <TabLink to={detail.tabHrefs.historico} current={detail.aba === "historico"}>
          Histórico
        </TabLink>
      </nav>
      {detail.aba === "detalhes" ? (
        <>
          <dl className="detail-facts">
            {detail.facts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value || "-"}</dd>
              </div>
            ))}
          </dl>
          {detail.who ? (
            <p className="detail-who">
              {detail.who.avatarUrl ? (
                <img src={detail.who.avatarUrl} alt="" width={48} height={48} className="board-avatar" />
              ) : (
                <span className="board-avatar" aria-hidden="true" />
              )}
              <strong>{detail.who.nome}</strong>
            </p>
          ) : null}
          <div className="table-scroll">
            <table className="data-table detail-times">
              <thead>
                <tr>
                  <th scope="col">{T.scheduled}</th>
                  <th scope="col">{T.performed}</th>
                </tr>
              </thead>
              <tbody>
                {detail.rows.map((row, index) => (
                  <tr key={index}>
                    <td>{row.scheduled}</td>
                    <td>
                      <span className={`status-dot board-${row.column}`}>{row.performed}</span>
                      {row.flags.map((flag) => (
                        <span key={flag} className="board-proof">
                          {flag}
                        </span>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <>
          <h3>Horários do dia</h3>
          <ul className="history-list">
            {detail.slots.map((slot) => (
              <li key={slot.id}>
                <strong>{slot.horario}</strong> {slot.tipo}
                {slot.emAndamento ? ` · ${T.inProgress}` : ""}
                {slot.justificativa ? <p className="muted">Justificativa: {slot.justificativa}</p> : null}
                {slot.inicioRecebido ? <p className="muted">Início recebido em {slot.inicioRecebido}</p> : null}
                {slot.fimRecebido ? <p className="muted">Fim recebido em {slot.fimRecebido}</p> : null}
              </li>
            ))}
          </ul>
          <h3>Execuções</h3>
          {detail.history.length ? (
            <ul className="history-list">
              {detail.history.map((entry) => (
                <li key={entry.id}>
                  <strong>{entry.hora}</strong> {entry.procedimento} · {entry.colaborador}
                  <span className="muted">
                    {" "}
                    ({entry.horario}
                    {entry.emAndamento ? `, ${T.inProgress.toLowerCase()}` : ""}
                    {entry.foto ? ", com foto" : ""}
                    {entry.recebidoEm ? `, recebido em ${entry.recebidoEm}` : ""})
                  </span>
                  {entry.observacao ? <p>Observação: {entry.observacao}</p> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">Nenhuma execução registrada neste dia.</p>
          )}
        </>
      )}
    </>
  );
}

function TabLink({ to, current, children }: { to: string; current: boolean; children: ReactNode }) {
  return (
    <Link
      to={to}
      replace
      preventScrollReset
      className={current ? "tab active" : "tab"}
      aria-current={current ? "page" : undefined}
    >
      {children}
    </Link>
  );
}
