import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import type { IncidentActionData, incidentLoader } from "./incidents.server";

/**
 * /ocorrencias/{id}: one incident (room, kind, what the visitor wrote, deadline, owner), its timeline, and for managers
 * the changes as plain forms: take it on, assign, move the deadline, discard with a reason.
 */
export default function IncidentDetail() {
  const { texts: T, correctiveTexts: R, incident } = useLoaderData<typeof incidentLoader>();
  const answer = useActionData<IncidentActionData>();
  const open = incident.status === "aberta" || incident.status === "em_atendimento";
  const error = (field: string) =>
    answer?.field === field ? (
      <p className="field-errors" role="alert">
        {answer.message}
      </p>
    ) : null;
  return (
    <>
      <PageHeader title={`Ocorrência nº ${incident.id}`} />
      <p>
        <Link to="/ocorrencias">Voltar às ocorrências</Link>
      </p>
      <section className="incident-card" aria-label="Dados da ocorrência">
        <dl className="incident-facts">
          <div>
            <dt>Ambiente</dt>
            <dd>
              {incident.ambiente.nome} · {incident.filial.nome}
            </dd>
          </div>
          <div>
            <dt>Tipo</dt>
            <dd>
              {incident.tipo}
              {incident.relatos > 1 ? ` (${incident.relatos} relatos)` : ""}
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              {incident.statusLabel}
              {incident.atrasada ? <strong className="incident-overdue"> · {T.overdue}</strong> : null}
            </dd>
          </div>
          <div>
            <dt>Relatada em</dt>
            <dd>{incident.criadaEmText}</dd>
          </div>
          <div>
            <dt>Prazo</dt>
            <dd>{incident.prazoText}</dd>
          </div>
          <div>
            <dt>Responsável</dt>
            <dd>{incident.responsavel ?? T.branchCoordinators}</dd>
          </div>
          <div>
            <dt>Prova para resolver</dt>
            <dd>{incident.provaLabel}</dd>
          </div>
          {incident.descricao ? (
            <div>
              <dt>Descrição do visitante</dt>
              <dd>{incident.descricao}</dd>
            </div>
          ) : null}
          {incident.fotoUrl ? (
            <div>
              <dt>Foto do visitante</dt>
              <dd>
                <a href={incident.fotoUrl}>
                  <img className="incident-photo" src={incident.fotoUrl} alt="Foto enviada pelo visitante" />
                </a>
              </dd>
            </div>
          ) : null}
          {incident.motivoDescarte ? (
            <div>
              <dt>Motivo do descarte</dt>
              <dd>{incident.motivoDescarte}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      {open && incident.podeAlterar ? (
        <section className="incident-actions" aria-label="Atender a ocorrência">
          <Form method="post" className="incident-form">
            <input type="hidden" name="intent" value="corretiva" />
            <h2 className="incident-form-title">{R.corrective}</h2>
            <p className="muted">
              Hoje, para um ASG da filial: aparece no quadro, na agenda e nos relatórios como Extra, e o ASG resolve
              pelo aplicativo com a prova pedida ({incident.provaLabel.toLowerCase()}).
            </p>
            <div className="field">
              <label htmlFor="colaborador">Colaborador</label>
              <select id="colaborador" name="colaborador" required defaultValue="">
                <option value="" disabled>
                  Escolha o ASG
                </option>
                {incident.colaboradores.map((person) => (
                  <option key={person.id} value={person.id}>
                    {person.nome}
                  </option>
                ))}
              </select>
            </div>
            {error("colaboradorId")}
            <div className="incident-hours">
              <div className="field">
                <label htmlFor="horaIni">Início</label>
                <input
                  id="horaIni"
                  name="horaIni"
                  type="time"
                  defaultValue={incident.limpezaSugerida.horaIni}
                  required
                />
              </div>
              <div className="field">
                <label htmlFor="horaFim">Término</label>
                <input
                  id="horaFim"
                  name="horaFim"
                  type="time"
                  defaultValue={incident.limpezaSugerida.horaFim}
                  required
                />
              </div>
            </div>
            {error("horaIni")}
            {error("horaFim")}
            {error("corretiva")}
            <button type="submit" className="button button-primary">
              {R.corrective}
            </button>
          </Form>
          {incident.status === "aberta" ? (
            <Form method="post">
              {error("em_atendimento")}
              <button type="submit" name="intent" value="em_atendimento" className="button button-primary">
                {T.take}
              </button>
            </Form>
          ) : null}
          <Form method="post" className="incident-form">
            <input type="hidden" name="intent" value="atribuida" />
            <div className="field">
              <label htmlFor="responsavel">Responsável</label>
              <select id="responsavel" name="responsavel" defaultValue={incident.responsavelId ?? ""}>
                <option value="">{T.branchCoordinators}</option>
                {incident.responsaveis.map((person) => (
                  <option key={person.id} value={person.id}>
                    {person.nome}
                  </option>
                ))}
              </select>
            </div>
            {error("atribuida")}
            <button type="submit" className="button">
              {T.assign}
            </button>
          </Form>
          <Form method="post" className="incident-form">
            <input type="hidden" name="intent" value="prazo_alterado" />
            <div className="field">
              <label htmlFor="prazo">Novo prazo</label>
              <input id="prazo" name="prazo" type="datetime-local" defaultValue={incident.prazoInput} required />
            </div>
            {error("prazo_alterado")}
            {error("prazo")}
            <button type="submit" className="button">
              {T.changeDeadline}
            </button>
          </Form>
          <Form method="post" className="incident-form">
            <input type="hidden" name="intent" value="descartada" />
            <div className="field">
              <label htmlFor="motivo">Motivo do descarte</label>
              <textarea id="motivo" name="motivo" maxLength={500} rows={2} />
            </div>
            {error("motivo")}
            {error("descartada")}
            <button type="submit" className="button button-danger">
              {T.discard}
            </button>
          </Form>
        </section>
      ) : !incident.podeAlterar ? (
        <p className="muted">{T.readOnly}</p>
      ) : null}

      <section aria-labelledby="historico">
        <h2 id="historico">{T.timeline}</h2>
        <ol className="incident-timeline">
          {incident.eventos.map((event, index) => (
            <li key={index}>
              <time>{event.emText}</time> <strong>{event.label}</strong> · {event.autor}
              {event.detalhe ? <p>{event.detalhe}</p> : null}
              {event.fotoUrl ? (
                <a href={event.fotoUrl}>
                  <img className="incident-photo" src={event.fotoUrl} alt={`Foto: ${event.label}`} loading="lazy" />
                </a>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
