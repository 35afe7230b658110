import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";

import { formatCpfText } from "../../api/domain/masks";
import { CPF_TEXTS as T } from "../../api/domain/pre-registered-cpfs";

import type { cpfStatusLoader } from "./status.server";

/** The confirmation of 'Status do(s) Usuário(s)': which CPFs, which change, Sim / Não. */
export default function CpfStatusConfirm() {
  const { action, label, confirm, selected, back } = useLoaderData<typeof cpfStatusLoader>();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="card" aria-labelledby="cpf-status-title">
      <h2 id="cpf-status-title">{label}</h2>
      <p>{confirm}</p>
      <ul aria-label="CPF's selecionados">
        {selected.map((row) => (
          <li key={row.CPF}>
            {formatCpfText(row.CPF)} <span className="muted">({row.NOME_FILIAL})</span>
          </li>
        ))}
      </ul>
      <Form method="post" className="form-actions">
        <input type="hidden" name="acao" value={action} />
        <input type="hidden" name="redirectTo" value={back} />
        {selected.map((row) => (
          <input key={row.CPF} type="hidden" name="cpf" value={row.CPF} />
        ))}
        <Link to={back} className="button">
          Não
        </Link>
        <button type="submit" className="button button-primary" disabled={busy}>
          Sim
        </button>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.statusMenu} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
