import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import type { IncidentKindActionData, incidentKindsLoader } from "./kinds.server";

type Kind = ReturnType<typeof useLoaderData<typeof incidentKindsLoader>>["kinds"][number];

/** /ocorrencias/tipos: one form per kind (name, deadline in hours, proof, active) and one for a new kind. */
export default function IncidentKinds() {
  const { texts: T, proofs, kinds } = useLoaderData<typeof incidentKindsLoader>();
  const answer = useActionData<IncidentKindActionData>();
  const error = (id: number | null) =>
    answer && answer.id === id ? (
      <p className="field-errors" role="alert">
        {answer.message}
      </p>
    ) : null;
  const fields = (kind: Kind | null) => {
    const key = kind?.id ?? "novo";
    return (
      <>
        <div className="field">
          <label htmlFor={`nome-${key}`}>Nome</label>
          <input id={`nome-${key}`} name="nome" defaultValue={kind?.nome ?? ""} maxLength={60} required />
        </div>
        <div className="incident-hours">
          <div className="field">
            <label htmlFor={`prazo-${key}`}>Prazo (horas)</label>
            <input
              id={`prazo-${key}`}
              name="prazoHoras"
              inputMode="decimal"
              defaultValue={kind?.prazoHoras ?? "2"}
              required
            />
          </div>
          <div className="field">
            <label htmlFor={`prova-${key}`}>Prova</label>
            <select id={`prova-${key}`} name="prova" defaultValue={kind?.prova ?? "foto"}>
              {proofs.map((proof) => (
                <option key={proof.value} value={proof.value}>
                  {proof.label}
                </option>
              ))}
            </select>
          </div>
        </div>
      </>
    );
  };
  return (
    <>
      <PageHeader title={T.title} help={T.titleTooltip} />
      <p>
        <Link to="/ocorrencias">Voltar às ocorrências</Link>
      </p>
      <ul className="incident-kinds" aria-label={T.title}>
        {kinds.map((kind) => (
          <li key={kind.id} className="incident-card">
            <Form method="post" className="incident-form" aria-label={kind.nome}>
              <input type="hidden" name="id" value={kind.id} />
              {fields(kind)}
              <label className="check">
                <input type="checkbox" name="ativo" value="1" defaultChecked={kind.ativo} />
                Oferecer aos visitantes
              </label>
              {error(kind.id)}
              <button type="submit" className="button">
                Salvar
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <section className="incident-card" aria-labelledby="novo-tipo">
        <Form method="post" className="incident-form">
          <h2 id="novo-tipo" className="incident-form-title">
            Novo tipo
          </h2>
          {fields(null)}
          {error(null)}
          <button type="submit" className="button button-primary">
            Cadastrar
          </button>
        </Form>
      </section>
    </>
  );
}
