import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";

import { IMPORT_HEADER, IMPORT_MAX_ROWS, IMPORT_TEXTS as T } from "../../api/domain/environment-import";

import { FormToast } from "~/components/forms";

import type { environmentImportLoader, ImportActionData } from "./import.server";

/** 'Baixar modelo': the template, with the example and the names of the branch chosen (?empresa=). */
export const ENVIRONMENT_TEMPLATE_PATH = "/ambientes/modelo.xlsx";
const templateHref = (branchId: string) => `${ENVIRONMENT_TEMPLATE_PATH}?empresa=${encodeURIComponent(branchId)}`;

/**
 * 'Importar ambientes': branch, file (.xlsx or .csv), 'Baixar modelo' and 'Importar'. The form posts to the page's
 * action with or without JS; a refused file shows every row error here and writes nothing.
 */
export default function EnvironmentImport() {
  const { branches, branchId } = useLoaderData<typeof environmentImportLoader>();
  const actionData = useActionData<ImportActionData>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [chosen, setChosen] = useState(actionData?.branchId || String(branchId));
  const chosenName = branches.find((branch) => String(branch.id) === chosen)?.nome;
  const errors = actionData?.errors ?? [];

  return (
    <section className="card stack" aria-labelledby="import-title">
      <div>
        <h2 id="import-title">{T.title}</h2>
        <p className="muted">
          Cadastre vários ambientes de uma vez com uma planilha: um ambiente por linha, com a categoria, o setor, o
          andar, os riscos e os procedimentos escritos pelos nomes cadastrados na filial. A importação é tudo ou nada:
          se uma linha tiver erro, nenhum ambiente é gravado.
        </p>
      </div>
      <FormToast toast={actionData?.toast} />
      {errors.length ? (
        <div className="notice notice-error" role="region" aria-labelledby="import-errors-title">
          <h3 id="import-errors-title">
            {actionData?.fileName ? `Erros em ${actionData.fileName}` : "Erros na planilha"}
          </h3>
          <p>{T.nothingWritten}</p>
          <ul aria-label="Erros da planilha">
            {errors.map((error, index) => (
              <li key={index}>{error}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="stack narrow-form">
        <div className="field">
          <label htmlFor="companyId">Empresa / filial</label>
          <select
            id="companyId"
            name="companyId"
            value={chosen}
            onChange={(event) => setChosen(event.currentTarget.value)}
          >
            {branches.map((branch) => (
              <option key={branch.id} value={branch.id}>
                {branch.id} - {branch.nome}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="arquivo">{T.fileLabel}</label>
          <input
            id="arquivo"
            name="arquivo"
            type="file"
            required
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            aria-describedby="arquivo-ajuda"
          />
          <p id="arquivo-ajuda" className="muted field-hint">
            Colunas: {IMPORT_HEADER.join(", ")}. Listas de nomes separadas por ponto e vírgula (;). Até{" "}
            {IMPORT_MAX_ROWS.toLocaleString("pt-BR")} ambientes por arquivo.
          </p>
        </div>
        <p className="muted field-hint">
          O modelo traz as instruções, um exemplo e os nomes cadastrados em {chosenName ?? "na filial escolhida"}.
        </p>
        <div className="form-actions">
          <Link className="button" to={templateHref(chosen)} reloadDocument download>
            {T.template}
          </Link>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? "Importando..." : T.submit}
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.title} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
