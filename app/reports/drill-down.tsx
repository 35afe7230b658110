import { Form, Link, useLoaderData } from "@remix-run/react";

import { REPORT_TEXTS as T } from "../../api/domain/reports";

import type { dayLevel, daysLevel } from "./drill-down.server";
import { DialogPager, ReportDialog } from "./report-dialog";
import { TaskPhoto } from "./task-photo";

/** A §4 status as a labelled chip (its colour by status; the text says it, so colour is not the only cue). */
export function StatusChip({ status }: { status: string }) {
  const slug = status
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z]+/g, "-");
  return <span className={`report-status report-status-${slug}`}>{status}</span>;
}

/**
 * The field app's proof flags of a slot ('Sem leitura do QR', 'Enviado com atraso (… após a execução)'), as chips
 * whose text says it all; nothing for a slot with nothing to say (docs/field-app.md 'Proof flags').
 */
export function ProofFlags({ flags }: { flags: readonly string[] }) {
  if (flags.length === 0) return null;
  return (
    <p className="proof-flags">
      {flags.map((flag) => (
        <span key={flag} className="report-status report-proof">
          {flag}
        </span>
      ))}
    </p>
  );
}

/** A collaborator's days: room, date, tasks done of asked, the day status; each opens 'Detalhes do Histórico'. */
export function DaysLevel({ title, exports }: { title: string; exports?: { excel: string; pdf: string } }) {
  const data = useLoaderData<typeof daysLevel>();
  return (
    <ReportDialog title={title} subtitle={`${data.colaborador} · ${data.period}`} back={data.back} close={data.close}>
      {exports ? (
        <p className="report-exports">
          <a className="button" href={exports.excel}>
            Exportar Excel
          </a>
          <a className="button" href={exports.pdf}>
            Exportar PDF
          </a>
        </p>
      ) : null}
      {data.days.length === 0 ? (
        <p className="empty-state">{T.collaboratorHistoryEmpty}</p>
      ) : (
        <ul className="report-days">
          {data.days.map((day) => {
            const content = (
              <>
                <span className="report-day-room">{day.ambiente}</span>
                <span>{day.dataBR}</span>
                <span className="muted">
                  {day.feitas} de {day.tarefas} {day.tarefas === 1 ? "tarefa" : "tarefas"}
                  {day.anterior ? " · sistema anterior" : ""}
                </span>
                <StatusChip status={day.status} />
              </>
            );
            return (
              <li key={`${day.data}-${day.ambienteId}-${day.anterior ? "anterior" : ""}`}>
                <Link to={day.href} preventScrollReset className="report-day">
                  {content}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <DialogPager pager={data.pager} label="Páginas do histórico" unit="dias" />
    </ReportDialog>
  );
}

/**
 * 'Detalhes do Histórico': each slot with its type, times and status, and its tasks (procedure, status, when it was
 * recorded, the observation, the photo: a thumbnail that opens the zoom page); the procedure search and
 * 'Mostrar revisões' are a GET form and a link.
 */
export function DayLevel() {
  const data = useLoaderData<typeof dayLevel>();
  return (
    <ReportDialog title={data.title} subtitle={data.subtitle} back={data.back} close={data.close}>
      <Form method="get" className="list-search" role="search" preventScrollReset>
        {data.hidden.map(([name, value], index) => (
          <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
        ))}
        <div className="field">
          <label htmlFor="procedimento">Procedimento</label>
          <input id="procedimento" name="procedimento" type="search" defaultValue={data.procedure} />
        </div>
        <button type="submit" className="button">
          Buscar
        </button>
      </Form>
      <p>
        <Link to={data.revisionsHref} preventScrollReset className="button">
          {data.revisions ? "Mostrar principal" : "Mostrar revisões"}
        </Link>
      </p>
      {data.empty ? (
        <p className="empty-state">{T.collaboratorHistoryEmpty}</p>
      ) : data.slots.length === 0 && data.legacy.length === 0 && data.revisions ? (
        <p className="empty-state">{T.revisionsEmpty}</p>
      ) : (
        data.slots.map((slot) => (
          <section key={slot.agendamentoId} className="report-slot" aria-label={`${slot.tipo} ${slot.horaIni}`}>
            <h3>
              {slot.tipo} · {slot.horaIni} às {slot.horaFim} <StatusChip status={slot.status} />
            </h3>
            <ProofFlags flags={slot.flags} />
            <dl className="detail-facts">
              <div>
                <dt>Início realizado</dt>
                <dd>{slot.inicio}</dd>
              </div>
              {slot.inicioRecebido !== "-" ? (
                <div>
                  <dt>Início recebido</dt>
                  <dd>{slot.inicioRecebido}</dd>
                </div>
              ) : null}
              <div>
                <dt>Fim realizado</dt>
                <dd>{slot.fim}</dd>
              </div>
              {slot.fimRecebido !== "-" ? (
                <div>
                  <dt>Fim recebido</dt>
                  <dd>{slot.fimRecebido}</dd>
                </div>
              ) : null}
              <div>
                <dt>Tempo de execução</dt>
                <dd>{slot.tempos.execucao}</dd>
              </div>
              <div>
                <dt>Tempo estimado</dt>
                <dd>{slot.tempos.estimado}</dd>
              </div>
              <div>
                <dt>Tempo otimizado</dt>
                <dd>{slot.tempos.otimizado}</dd>
              </div>
              {slot.justificativa ? (
                <div>
                  <dt>Justificativa</dt>
                  <dd>{slot.justificativa}</dd>
                </div>
              ) : null}
            </dl>
            {slot.tarefas.length === 0 ? (
              <p className="muted">Nenhum procedimento encontrado.</p>
            ) : (
              <ul className="report-tasks">
                {slot.tarefas.map((task, index) => (
                  <li key={`${task.procedimentoId}-${index}`} className="report-task">
                    <TaskPhoto photo={task.foto} label={task.procedimento} />
                    <span className="report-task-name">
                      <strong>{task.procedimento}</strong>
                      <span className="muted">
                        {task.tipo} · registrado às {task.registradoEm}
                        {task.recebidoEm !== "-" ? ` · recebido em ${task.recebidoEm}` : ""} · Observação:{" "}
                        {task.observacao}
                      </span>
                    </span>
                    <StatusChip status={task.status} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))
      )}
      {data.legacy.length > 0 ? <LegacyRows rows={data.legacy} /> : null}
    </ReportDialog>
  );
}

/** An old-system day's rows ('Mostrar dados anteriores à Agosto/2022'): one per procedure done, as the old system kept. */
function LegacyRows({ rows }: { rows: ReturnType<typeof useLoaderData<typeof dayLevel>>["legacy"] }) {
  return (
    <section className="report-slot" aria-label="Sistema anterior">
      <h3>Sistema anterior</h3>
      <ul className="report-tasks">
        {rows.map((row) => (
          <li key={row.id} className="report-task">
            {/* The old system's images stayed with it (docs/legacy-data.md). */}
            <TaskPhoto photo={null} label={row.procedimento} />
            <span className="report-task-name">
              <strong>{row.procedimento}</strong>
              <span className="muted">
                {row.tipo} · {row.horaIni} às {row.horaFim} · realizado das {row.inicio} às {row.fim} · Tempo de
                execução: {row.tempos.execucao} · Observação: {row.observacao}
              </span>
            </span>
            <StatusChip status={row.status} />
          </li>
        ))}
      </ul>
    </section>
  );
}
