import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";

import { ErrorList, FormToast } from "~/components/forms";

import type { EditActionData, agendaEditLoader } from "./edit.server";
import { ItemFields } from "./item-fields";
import { checkItem, itemValuesOf, type FormToastData, type ItemErrors } from "./item-form";

/**
 * The edit-booking modal (spec 001 §2.3) as a page: the booking's date as title, 'Agenda ativada' / 'Agenda
 * desativada', Ambiente, Colaborador, the item's fields ('1° Limpeza', 'n° Revisão') and 'Salvar'. With JS the rules
 * run before posting (the same ones the action and the API run).
 */
export default function AgendaEdit() {
  const loaded = useLoaderData<typeof agendaEditLoader>();
  const actionData = useActionData<EditActionData>();
  const values = actionData?.values ?? loaded.values;
  const [ativo, setAtivo] = useState(actionData?.ativo ?? loaded.ativo);
  const [errors, setErrors] = useState<ItemErrors | undefined>(actionData?.errors);
  const [toast, setToast] = useState<FormToastData | null>(actionData?.toast ?? null);
  useEffect(() => {
    setErrors(actionData?.errors);
    setToast(actionData?.toast ? { ...actionData.toast } : null);
  }, [actionData]);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("value") !== "salvar") return;
    const checked = checkItem(itemValuesOf(new FormData(event.currentTarget)), {
      mode: "edit",
      originalVigIni: loaded.originalVigIni,
    });
    if (checked.ok) return;
    event.preventDefault();
    setErrors(checked.errors);
    setToast({ ...checked.toast });
  };

  return (
    <section className="card dialog-page agenda-edit" aria-labelledby="edit-title">
      <h2 id="edit-title">{loaded.title}</h2>
      <p className="muted">{loaded.subtitle}</p>
      <FormToast toast={toast} />
      <Form method="post" className="stack" onSubmit={onSubmit} noValidate>
        <input type="hidden" name="redirectTo" value={loaded.back} />
        <label className="checkbox-field switch-field">
          <input
            type="checkbox"
            role="switch"
            name="ativo"
            value="1"
            checked={ativo}
            onChange={(event) => setAtivo(event.currentTarget.checked)}
          />
          {ativo ? "Agenda ativada" : "Agenda desativada"}
        </label>
        <div className="field">
          <label htmlFor="colaborador">Colaborador</label>
          <select id="colaborador" name="colaborador" defaultValue={actionData?.colaborador ?? loaded.colaborador}>
            {loaded.users.map((user) => (
              <option key={user.id} value={user.id}>
                {user.nome}
              </option>
            ))}
          </select>
          <ErrorList errors={errors?.colaborador} />
        </div>
        <ItemFields values={values} errors={errors} environments={loaded.environments} labels="edit" />
        <div className="form-actions">
          <Link to={loaded.back} className="button">
            Cancelar
          </Link>
          <button type="submit" name="intent" value="salvar" className="button button-primary">
            Salvar
          </button>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Editar agenda | Limpeza" }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
