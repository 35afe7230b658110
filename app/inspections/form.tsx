import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { PageHeader } from "~/components/page-header";

import type { InspectionFormActionData, inspectionFormLoader } from "./inspections.server";

/**
 * /inspecoes/nova/{ambienteId}: the room's checklist as one plain multipart form, made for a phone: each item a
 * fieldset with three large choices (Conforme, Não conforme, Não se aplica; the browser asks for one), a note and up to
 * three photos. A re-inspection shows each item's answer last time. A refused submission comes back with the answers
 * and notes kept (photos must be chosen again: a browser never refills a file input).
 */
export default function InspectionFormPage() {
  const loaded = useLoaderData<typeof inspectionFormLoader>();
  const answer = useActionData<InspectionFormActionData>();
  const busy = useNavigation().state === "submitting";
  const T = loaded.texts;
  if (!loaded.form) {
    return (
      <>
        <PageHeader title={T.newInspection} />
        <p className="empty-state" role="alert">
          {loaded.message}
        </p>
        <p>
          <Link to="/inspecoes/nova">Escolher outro ambiente</Link>
        </p>
      </>
    );
  }
  const { form, answers, photosPerItem, photosPerInspection } = loaded;
  const sent = answer?.values ?? {};
  return (
    <>
      <PageHeader title={`${T.inspect}: ${form.ambiente.nome}`} />
      <p className="muted">
        {form.filial.nome} · checklist {form.checklist.nome} (versão {form.versao}) · nota mínima {form.notaMinimaText}{" "}
        · até {photosPerInspection} fotos por inspeção
      </p>
      {form.anterior ? (
        <p className="inspection-notice">
          Reinspeção da <Link to={`/inspecoes/${form.anterior.id}`}>inspeção nº {form.anterior.id}</Link> (nota{" "}
          {form.anterior.notaText}). A resposta anterior aparece em cada item.
        </p>
      ) : null}
      {answer ? (
        <p className="field-errors form-error" role="alert">
          {answer.message}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="inspection-form">
        <input type="hidden" name="versao" value={form.versao} />
        {form.anterior ? <input type="hidden" name="reinspecaoDe" value={form.anterior.id} /> : null}
        <ol className="inspection-items">
          {form.itens.map((item, index) => (
            <li key={item.id}>
              <fieldset className="inspection-item">
                <legend>
                  {index + 1}. {item.texto}
                </legend>
                <p className="muted inspection-item-meta">
                  Peso {item.peso}
                  {item.procedimento ? ` · ${item.procedimento}` : ""}
                  {item.antes ? ` · antes: ${item.antes}` : ""}
                </p>
                <div className="inspection-choices">
                  {answers.map((choice) => (
                    <label key={choice.value} className={`inspection-choice inspection-${choice.value}`}>
                      <input
                        type="radio"
                        name={`resposta_${item.id}`}
                        value={choice.value}
                        required
                        defaultChecked={sent[`resposta_${item.id}`] === choice.value}
                      />
                      <span>{choice.label}</span>
                    </label>
                  ))}
                </div>
                <div className="field">
                  <label htmlFor={`observacao_${item.id}`}>Observação (opcional)</label>
                  <textarea
                    id={`observacao_${item.id}`}
                    name={`observacao_${item.id}`}
                    rows={1}
                    maxLength={500}
                    defaultValue={sent[`observacao_${item.id}`] ?? ""}
                  />
                </div>
                <div className="field">
                  <label htmlFor={`fotos_${item.id}`}>Fotos (até {photosPerItem}, 2 MB cada)</label>
                  <input
                    id={`fotos_${item.id}`}
                    name={`fotos_${item.id}`}
                    type="file"
                    accept="image/jpeg,image/png,image/gif,image/webp"
                    multiple
                  />
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        <div className="field">
          <label htmlFor="observacao">Observação geral (opcional)</label>
          <textarea id="observacao" name="observacao" rows={2} maxLength={1000} defaultValue={sent.observacao ?? ""} />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Enviando..." : "Registrar inspeção"}
        </button>
      </Form>
    </>
  );
}
