import { Form, Link, useLoaderData } from "@remix-run/react";

import { INCOMPLETE_TEXTS as T } from "../../api/domain/incomplete-tasks";

import { NO_SEARCH_RESULTS } from "~/lib/search-texts";

import type { procedureHistoryLoader } from "./incomplete-tasks.server";
import { DialogPager, ReportDialog } from "./report-dialog";

/**
 * 'Histórico do Procedimento' (spec 001 §2.11): the period, the dialog's search, the cards (procedure, start, end,
 * observation) whose detail side (avatar, room, collaborator, CPF, e-mail, phone) is a disclosure that needs no JS;
 * the avatar opens the viewer ('Voltar' back to the cards); the room opens its incomplete tasks; PDF and Excel.
 */
export default function ProcedureHistory() {
  const data = useLoaderData<typeof procedureHistoryLoader>();
  if (data.avatar)
    return (
      <ReportDialog title={T.avatarTitle} subtitle={data.avatar.nome} back={data.back} close={data.close}>
        <img className="avatar-viewer" src={data.avatar.src} alt={`Foto de ${data.avatar.nome}`} />
      </ReportDialog>
    );
  return (
    <ReportDialog title={T.procedureTitle} subtitle={data.nome} back={data.close} close={data.close}>
      <p>{data.period}</p>
      <p className="report-exports">
        <a className="button" href={data.excel}>
          Exportar Excel
        </a>
        <a className="button" href={data.pdf}>
          Exportar PDF
        </a>
      </p>
      <Form method="get" className="list-search" role="search" preventScrollReset>
        {data.hidden.map(([name, value], index) => (
          <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
        ))}
        <div className="field">
          <label htmlFor="busca">Buscar no histórico</label>
          <input
            id="busca"
            name="busca"
            type="search"
            defaultValue={data.busca}
            placeholder="Colaborador, ambiente ou motivo"
          />
        </div>
        <button type="submit" className="button">
          Buscar
        </button>
      </Form>
      {data.cards.length === 0 ? (
        <p className="empty-state">{data.busca ? NO_SEARCH_RESULTS : T.procedureEmpty}</p>
      ) : (
        <ul className="task-cards">
          {data.cards.map((card) => (
            <li key={card.id}>
              <article className="task-card" aria-label={`${card.procedimento}, ${card.data}`}>
                <h3>{card.procedimento}</h3>
                <dl className="task-card-facts">
                  <div>
                    <dt>Início</dt>
                    <dd>{card.inicio}</dd>
                  </div>
                  <div>
                    <dt>Fim</dt>
                    <dd>{card.fim}</dd>
                  </div>
                  <div className="task-card-wide">
                    <dt>Observação</dt>
                    <dd>{card.observacao}</dd>
                  </div>
                </dl>
                <details className="task-card-back">
                  <summary>Ver detalhes</summary>
                  <div className="task-card-person">
                    {card.avatarHref && card.avatarThumb ? (
                      <Link to={card.avatarHref} preventScrollReset aria-label={`Ver a foto de ${card.colaborador}`}>
                        <img className="avatar" src={card.avatarThumb} alt="" width={48} height={48} loading="lazy" />
                      </Link>
                    ) : (
                      <span className="avatar avatar-empty" aria-hidden="true" />
                    )}
                    <dl className="task-card-facts">
                      <div className="task-card-wide">
                        <dt>Ambiente</dt>
                        <dd>
                          <Link to={card.roomHref} preventScrollReset>
                            {card.ambiente.nome}
                          </Link>
                        </dd>
                      </div>
                      <div className="task-card-wide">
                        <dt>Colaborador</dt>
                        <dd>{card.colaborador}</dd>
                      </div>
                      <div>
                        <dt>CPF</dt>
                        <dd>{card.cpf}</dd>
                      </div>
                      <div>
                        <dt>Telefone</dt>
                        <dd>{card.telefone}</dd>
                      </div>
                      <div className="task-card-wide">
                        <dt>E-mail</dt>
                        <dd>{card.email}</dd>
                      </div>
                    </dl>
                  </div>
                </details>
              </article>
            </li>
          ))}
        </ul>
      )}
      <DialogPager pager={data.pager} label="Páginas do histórico do procedimento" unit="tarefas" />
    </ReportDialog>
  );
}
