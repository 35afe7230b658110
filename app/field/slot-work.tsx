import type { ExecutionSlot } from "../../api/routes/execution";

export type Procedure = { id: number; name: string; mandatory: boolean };

const STATUS_TEXT = { Andamento: "Em andamento", Completo: "Concluída", Incompleto: "Não concluída" } as const;

/** Where a slot stands, as the page and the phone's script both name it (`data-fase`). */
export type Phase = "todo" | "started" | "closed";
export const phaseOf = (slot: Pick<ExecutionSlot, "status">): Phase =>
  slot.status === null ? "todo" : slot.status === "Andamento" ? "started" : "closed";

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit", timeZone: "America/Fortaleza" });

/**
 * Doing the work of one slot (docs/field-app.md 'Pages'): 'Iniciar', a large tick per procedure (mandatory first)
 * with an optional note and a camera photo, 'Tudo feito', 'Finalizar' and 'Não consegui concluir'. Each step is one
 * small form posting `step` to this page (a redirect after each, so it works without JS); every part is rendered,
 * those of other phases `hidden`, so the phone's script can move the slot along offline (`data-quando`).
 */
export function SlotWork({
  slot,
  procedures,
  revisionPhotos,
  qr,
  back,
}: {
  slot: ExecutionSlot;
  procedures: Procedure[];
  revisionPhotos: boolean;
  qr?: string | null;
  /** The page to come back to after each step (the room's page or the slot's own). */
  back: string;
}) {
  const action = `/campo/limpeza/${slot.id}`;
  const phase = phaseOf(slot);
  const done = new Map(slot.done.map((row) => [row.procedureId, row]));
  const when = (...phases: Phase[]) => !phases.includes(phase);
  const stepForm = (step: string, children: React.ReactNode, extra?: { multipart?: boolean; className?: string }) => (
    <form
      method="post"
      action={action}
      encType={extra?.multipart ? "multipart/form-data" : undefined}
      className={extra?.className}
      data-fila={step}
    >
      <input type="hidden" name="step" value={step} />
      <input type="hidden" name="voltar" value={back} />
      <input type="hidden" name="feitoEm" value="" />
      {children}
    </form>
  );
  return (
    <section className="work" data-limpeza={slot.id} data-fase={phase} aria-labelledby={`limpeza-${slot.id}`}>
      <header>
        <h2 id={`limpeza-${slot.id}`}>
          {slot.horaIni}–{slot.horaFim}
          {slot.type !== "Principal" ? ` · ${slot.type}` : ""}
        </h2>
        <p data-estado>
          {slot.status ? STATUS_TEXT[slot.status] : "A fazer"}
          {slot.startDate ? ` · iniciada às ${timeOf(slot.startDate)}` : ""}
          {slot.finishedAt ? ` · encerrada às ${timeOf(slot.finishedAt)}` : ""}
        </p>
        {slot.justificativa ? <p>Motivo: {slot.justificativa}</p> : null}
        {slot.slot > 0 && revisionPhotos ? <p className="hint">Esta revisão pede uma foto.</p> : null}
      </header>
      <div data-quando="todo" hidden={when("todo")}>
        {stepForm(
          "start",
          <>
            {qr ? <input type="hidden" name="qr" value={qr} /> : null}
            <button type="submit" className="big">
              Iniciar
            </button>
          </>,
        )}
      </div>
      <ul className="procs" aria-label="Procedimentos">
        {procedures.map((procedure) => {
          const row = done.get(procedure.id);
          return (
            <li key={procedure.id} className={row ? "proc done" : "proc"} data-procedimento={procedure.id}>
              {stepForm(
                "procedure",
                <>
                  <input type="hidden" name="procedureId" value={procedure.id} />
                  <div className="line">
                    <span className="name">
                      {procedure.name}
                      {procedure.mandatory ? <span className="mandatory">obrigatório</span> : null}
                      {row ? <span className="hint"> · feito às {timeOf(row.createdAt)}</span> : null}
                    </span>
                    <button
                      type="submit"
                      className="tick"
                      aria-label={`Marcar como feito: ${procedure.name}`}
                      disabled={Boolean(row) || phase !== "started"}
                    >
                      ✓
                    </button>
                  </div>
                  <details hidden={Boolean(row) || phase !== "started"} data-quando="started">
                    <summary>Nota e foto</summary>
                    <label htmlFor={`nota-${slot.id}-${procedure.id}`}>Observação (opcional)</label>
                    <textarea id={`nota-${slot.id}-${procedure.id}`} name="observacao" maxLength={1000} />
                    <label htmlFor={`foto-${slot.id}-${procedure.id}`}>Foto (opcional)</label>
                    <input
                      id={`foto-${slot.id}-${procedure.id}`}
                      type="file"
                      name="photo"
                      accept="image/*"
                      capture="environment"
                    />
                  </details>
                </>,
                { multipart: true },
              )}
            </li>
          );
        })}
      </ul>
      <div data-quando="started" hidden={when("started")}>
        {procedures.some((procedure) => !done.has(procedure.id))
          ? stepForm(
              "remaining",
              <button type="submit" className="big secondary">
                Tudo feito
              </button>,
            )
          : null}
        {stepForm(
          "finish",
          <button type="submit" className="big finish">
            Finalizar
          </button>,
        )}
      </div>
      <details data-quando="todo started" hidden={phase === "closed"}>
        <summary>Não consegui concluir</summary>
        {stepForm(
          "incomplete",
          <>
            <label htmlFor={`motivo-${slot.id}`}>Motivo</label>
            <textarea id={`motivo-${slot.id}`} name="justificativa" required maxLength={500} />
            <button type="submit" className="big secondary">
              Registrar motivo
            </button>
          </>,
        )}
      </details>
      <p data-quando="closed" hidden={when("closed")} className="hint">
        Esta limpeza está encerrada. <a href="/campo">Voltar para Hoje</a>
      </p>
    </section>
  );
}
