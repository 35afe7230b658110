import { getFormProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";

import { USER_TEXTS as T } from "../../api/domain/users";

import { DataList } from "~/components/data-list";
import { Field, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";
import { ConfirmRemoval, Modal } from "~/components/modal";

import { NAME_INTENT, UserNameSchema } from "./form-schema";
import { nameRemoveHref, namesHref } from "./links";
import type { userNamesLoader } from "./names.server";

type NamesData = ReturnType<typeof useLoaderData<typeof userNamesLoader>>;
type NameRow = NamesData["names"][number];

/** 'Nome do Usuário' with Cancelar (back to the list of names) and Salvar; the same form creates and renames. */
function NameForm({ user, back, editing }: Pick<NamesData, "user" | "back" | "editing">) {
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(UserNameSchema, actionData, {
    id: editing ? `name-${editing.id}` : "name-new",
    defaultValue: { name: editing?.name ?? "" },
  });
  return (
    <>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack">
        <input type="hidden" name="intent" value={editing ? NAME_INTENT.update : NAME_INTENT.create} />
        {editing ? <input type="hidden" name="nameId" value={editing.id} /> : null}
        <input type="hidden" name="redirectTo" value={back} />
        <Field label={T.nameLabel} meta={fields.name} inputProps={{ autoComplete: "off" }} />
        <div className="form-actions">
          <Link to={namesHref(user.id, back)} className="button">
            Cancelar
          </Link>
          <button type="submit" className="button button-primary">
            Salvar
          </button>
        </div>
      </Form>
    </>
  );
}

/**
 * 'Nomes do Usuário' (spec 000 §2 'Users'), a dialog drawn as a page: the tabs 'Lista de Nomes' and 'Cadastrar Nome'
 * ('Editar Nome' while renaming, ?editar=ID), the names with Editar and Remover. Remover asks 'Tem certeza que deseja
 * remover?': in a dialog with JS, on its own page without.
 */
export default function UserNames() {
  const { user, back, tab, canEdit, names, editing } = useLoaderData<typeof userNamesLoader>();
  const [removing, setRemoving] = useState<NameRow | null>(null);
  // New names (after a save or a removal): no dialog left open.
  useEffect(() => setRemoving(null), [names]);
  const here = namesHref(user.id, back);
  return (
    <section className="card dialog-page" aria-labelledby="user-names-title">
      <h2 id="user-names-title">{T.namesTitle}</h2>
      <p className="muted">
        {user.nome} ({user.empresa})
      </p>
      <nav className="segmented" aria-label="Abas de nomes">
        <Link to={here} aria-current={tab === "lista" ? "page" : undefined}>
          {T.namesListTab}
        </Link>
        {canEdit ? (
          <Link
            to={
              editing
                ? namesHref(user.id, back, { editar: editing.id })
                : namesHref(user.id, back, { aba: "cadastrar" })
            }
            aria-current={tab === "lista" ? undefined : "page"}
          >
            {editing ? T.nameEditTab : T.nameCreateTab}
          </Link>
        ) : null}
      </nav>
      {tab === "lista" ? (
        <>
          {names.length === 0 ? (
            <p className="empty-state">Nenhum nome cadastrado.</p>
          ) : (
            <DataList
              label={T.namesTitle}
              rows={names}
              rowKey={(row) => row.id}
              columns={[{ id: "nome", label: "Nome", primary: true, cell: (row) => row.name }]}
              actionsHeader="Ações"
              actions={
                canEdit
                  ? [
                      {
                        label: "Editar",
                        action: (row) => ({
                          label: "Editar",
                          to: namesHref(user.id, back, { editar: row.id }),
                          accessibleName: `Editar ${row.name}`,
                        }),
                      },
                      {
                        label: "Remover",
                        action: (row) => ({
                          label: "Remover",
                          to: nameRemoveHref(user.id, row.id, back),
                          accessibleName: `Remover ${row.name}`,
                          danger: true,
                          onClick: (event) => {
                            event.preventDefault();
                            setRemoving(row);
                          },
                        }),
                      },
                    ]
                  : []
              }
            />
          )}
          <div className="form-actions list-actions">
            <Link to={back} className="button">
              Voltar
            </Link>
          </div>
        </>
      ) : (
        <NameForm key={editing?.id ?? "novo"} user={user} back={back} editing={editing} />
      )}
      {removing !== null ? (
        <Modal title={`Remover ${removing.name}`} subtitle={user.nome} onClose={() => setRemoving(null)}>
          <ConfirmRemoval
            action={nameRemoveHref(user.id, removing.id, back)}
            redirectTo={here}
            onCancel={() => setRemoving(null)}
          />
        </Modal>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.namesTitle} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
