import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import type { InspectionActionData, inspectionLoader } from "./inspections.server";

/**
 * /inspecoes/{id}: one inspection — its score with the sums and the formula, each item's answer, note and photos; a
 * 'Não conforme' item opens an incident (and, for managers, a corrective cleaning) with a plain form; a re-inspection
 * shows what changed since the inspection it checks again.
 */
export default function InspectionDetail() {
  const { texts: T, formula, mayInspect, kinds, asgs, inspection } = useLoaderData<typeof inspectionLoader>();
  const answer = useActionData<InspectionActionData>();
  return (
    <>
      <PageHeader title={`Inspeção nº ${inspection.id}`} />
      <p className="inspection-links">
        <Link to="/inspecoes">Voltar às inspeções</Link>
        {mayInspect ? (
          <Link to={`/inspecoes/nova/${inspection.ambiente.id}?reinspecao=${inspection.id}`} className="button">
            {T.reinspect}
          </Link>
        ) : null}
      </p>
      <section className="incident-card" aria-label="Resultado da inspeção">
        <p className={`inspection-score ${inspection.aprovada ? "inspection-passed" : "inspection-failed"}`}>
          <strong>{inspection.notaText}</strong> {inspection.resultado}
          <span className="muted"> (nota mínima {inspection.notaMinimaText})</span>
        </p>
        <p className="inspection-formula">
          Conta: {inspection.pontosConforme} ÷ {inspection.pontosAplicaveis} × 100 = {inspection.notaText}.{" "}
          <span className="muted">{formula}</span>
        </p>
        <dl className="incident-facts">
          <div>
            <dt>Ambiente</dt>
            <dd>
              {inspection.ambiente.nome} · {inspection.filial.nome}
            </dd>
          </div>
          <div>
            <dt>Checklist</dt>
            <dd>
              {inspection.checklist} (versão {inspection.versao})
            </dd>
          </div>
          <div>
            <dt>Inspetor</dt>
            <dd>{inspection.inspetor}</dd>
          </div>
          <div>
            <dt>Data</dt>
            <dd>{inspection.emText}</dd>
          </div>
          {inspection.observacao ? (
            <div>
              <dt>Observação</dt>
              <dd>{inspection.observacao}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      {inspection.anterior ? (
        <section aria-labelledby="mudancas">
          <h2 id="mudancas">O que mudou</h2>
          <p>
            Reinspeção da <Link to={`/inspecoes/${inspection.anterior.id}`}>inspeção nº {inspection.anterior.id}</Link>{" "}
            de {inspection.anterior.emText}: nota {inspection.anterior.notaText} → {inspection.notaText}.
          </p>
          <ul className="inspection-changes">
            {inspection.anterior.mudancas.map((change) => (
              <li key={change.chave} className={change.mudou ? "inspection-changed" : undefined}>
                {change.texto}: {change.antesLabel} → <strong>{change.agoraLabel}</strong>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {inspection.reinspecoes.length > 0 ? (
        <p>
          Reinspecionada:{" "}
          {inspection.reinspecoes.map((row, index) => (
            <span key={row.id}>
              {index > 0 ? ", " : ""}
              <Link to={`/inspecoes/${row.id}`}>
                nº {row.id} ({row.notaText}, {row.emText})
              </Link>
            </span>
          ))}
        </p>
      ) : null}

      <section aria-labelledby="itens">
        <h2 id="itens">Itens</h2>
        <ol className="inspection-items">
          {inspection.respostas.map((item) => (
            <li key={item.itemId} className={`inspection-answer inspection-${item.resposta}`}>
              <p>
                <strong>{item.texto}</strong> <span className="muted">· peso {item.peso}</span>
                {item.procedimento ? <span className="muted"> · {item.procedimento}</span> : null}
              </p>
              <p className="inspection-answer-label">{item.label}</p>
              {item.observacao ? <p>{item.observacao}</p> : null}
              {item.fotoUrls.length > 0 ? (
                <p className="inspection-photos">
                  {item.fotoUrls.map((url, index) => (
                    <a key={url} href={url}>
                      <img
                        className="incident-photo"
                        src={url}
                        alt={`Foto ${index + 1}: ${item.texto}`}
                        loading="lazy"
                      />
                    </a>
                  ))}
                </p>
              ) : null}
              {item.ocorrencia ? (
                <p>
                  <Link to={`/ocorrencias/${item.ocorrencia.id}`}>Ocorrência nº {item.ocorrencia.id}</Link> (
                  {item.ocorrenciaStatus})
                </p>
              ) : item.resposta === "nao_conforme" && mayInspect && kinds.length > 0 ? (
                <Form method="post" className="incident-form inspection-failure">
                  <input type="hidden" name="item" value={item.itemId} />
                  <div className="field">
                    <label htmlFor={`tipo_${item.itemId}`}>Tipo da ocorrência</label>
                    <select id={`tipo_${item.itemId}`} name="tipo" required defaultValue="">
                      <option value="" disabled>
                        Escolha o tipo
                      </option>
                      {kinds.map((kind) => (
                        <option key={kind.id} value={kind.id}>
                          {kind.nome}
                        </option>
                      ))}
                    </select>
                  </div>
                  {asgs.length > 0 ? (
                    <div className="field">
                      <label htmlFor={`colaborador_${item.itemId}`}>Limpeza corretiva hoje (opcional)</label>
                      <select id={`colaborador_${item.itemId}`} name="colaborador" defaultValue="">
                        <option value="">Sem limpeza corretiva</option>
                        {asgs.map((person) => (
                          <option key={person.id} value={person.id}>
                            {person.nome}
                          </option>
                        ))}
                      </select>
                    </div>
                  ) : null}
                  {answer?.itemId === item.itemId ? (
                    <p className="field-errors" role="alert">
                      {answer.message}
                    </p>
                  ) : null}
                  <button type="submit" className="button">
                    Abrir ocorrência
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
