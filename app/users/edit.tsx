import { getFormProps, getInputProps } from "@conform-to/react";
import type { MetaFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";

import { USER_TEXTS as T } from "../../api/domain/users";

import { ErrorList, Field, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";
import { useHydrated } from "~/lib/use-hydrated";

import type { userEditLoader } from "./edit.server";
import { BranchSelect, LevelSelect } from "./fields";
import { EDIT_INTENT, NO_LEVEL, UserEditSchema, UserLevelSchema } from "./form-schema";
import { editHref } from "./links";

type EditData = ReturnType<typeof useLoaderData<typeof userEditLoader>>;

/** Ours: the hints of the optional password and of 'Filial' when it shows for every level (without JS). */
const PASSWORD_HINT = "Preencha a senha somente para trocá-la.";
/** Ours: one's own password (it needs the current one) and status are not changed here but on the profile. */
const SELF_HINT = "A sua própria senha se troca em Meu perfil, que pede a senha atual.";
const BRANCH_HINT = "Usada para Coordenador e ASG; ignorada nos outros níveis.";

/** 'Alterar informações': nome, telefone (masked), the 'Ativo' switch, and an optional new password. */
function InfoForm({ user, back, self }: Pick<EditData, "user" | "back" | "self">) {
  const actionData = useActionData<FormActionData>();
  const { form, fields, onSubmit, toast } = useValidatedForm(UserEditSchema, actionData, {
    id: "user-info",
    defaultValue: { nome: user.nome, telefone: user.telefone, ativo: user.ativo ? "on" : "" },
  });
  const { key: ativoKey, ...ativo } = getInputProps(fields.ativo, { type: "checkbox" });
  return (
    <>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <input type="hidden" name="intent" value={EDIT_INTENT.info} />
        <input type="hidden" name="redirectTo" value={back} />
        <Field label="Nome" meta={fields.nome} inputProps={{ autoComplete: "off" }} />
        <Field
          label="Telefone"
          meta={fields.telefone}
          mask="phone"
          type="tel"
          inputProps={{ placeholder: "(00) 0 0000-0000", autoComplete: "off" }}
        />
        {self ? (
          <>
            {/* No one inactivates their own account (the API refuses it): the switch stays on. */}
            <input type="hidden" name="ativo" value="on" />
            <p className="muted field-hint">
              {SELF_HINT} <Link to="/profile">Acessar meu perfil</Link>
            </p>
          </>
        ) : (
          <>
            <div className="field">
              <label className="org-switch">
                <input key={ativoKey} {...ativo} />
                <span>Ativo</span>
              </label>
              <ErrorList id={fields.ativo.errorId} errors={fields.ativo.errors} />
            </div>
            <p className="muted field-hint">{PASSWORD_HINT}</p>
            <PasswordField label="Senha" meta={fields.password} autoComplete="new-password" />
            <PasswordField label="Confirmar senha" meta={fields.confirmPassword} autoComplete="new-password" />
          </>
        )}
        <div className="form-actions">
          <Link to={back} className="button">
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

/** 'Alterar nível de acesso': the levels this viewer may give and 'Sem nível'; 'Filial' for Coordenador and ASG. */
function LevelForm({ user, back, levels, branches, branchId }: Omit<EditData, "tab" | "self">) {
  const actionData = useActionData<FormActionData>();
  const current = levels.some((level) => level.id === user.roleId) ? String(user.roleId) : String(NO_LEVEL);
  const { form, fields, onSubmit, toast } = useValidatedForm(UserLevelSchema, actionData, {
    id: "user-level",
    defaultValue: { roleId: current, filialId: branchId === null ? "" : String(branchId) },
  });
  const hydrated = useHydrated();
  const [levelId, setLevelId] = useState(fields.roleId.initialValue ?? current);
  const branchLevel = levels.some((level) => String(level.id) === levelId && level.branch);
  return (
    <>
      <FormToast toast={toast} />
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack narrow-form">
        <input type="hidden" name="intent" value={EDIT_INTENT.level} />
        <input type="hidden" name="redirectTo" value={back} />
        <p>
          Nível atual: <strong>{user.nivel}</strong>
        </p>
        <LevelSelect
          meta={fields.roleId}
          options={[
            ...levels.map((level) => ({ value: String(level.id), label: level.label })),
            { value: String(NO_LEVEL), label: "Sem nível" },
          ]}
          onChange={setLevelId}
        />
        {!hydrated || branchLevel ? (
          <BranchSelect meta={fields.filialId} branches={branches} hint={hydrated ? undefined : BRANCH_HINT} />
        ) : null}
        <div className="form-actions">
          <Link to={back} className="button">
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
 * 'Editar Usuário' (spec 000 §2 'Users'), a dialog drawn as a page (deep-linkable, the same with and without JS): the
 * user's name, CPF and e-mail, and the tabs 'Alterar informações' and 'Alterar nível de acesso' (?aba=nivel).
 * Cancelar goes back to the list as it was.
 */
export default function UserEdit() {
  const loaded = useLoaderData<typeof userEditLoader>();
  const { user, back, tab, self } = loaded;
  return (
    <section className="card dialog-page" aria-labelledby="user-edit-title">
      <h2 id="user-edit-title">{T.editTitle}</h2>
      <p>
        <strong>{user.nome}</strong>
        <br />
        <span className="muted">CPF: {user.cpf}</span>
        <br />
        <span className="muted">E-mail: {user.email}</span>
      </p>
      <nav className="segmented" aria-label="Abas do usuário">
        <Link to={editHref(user.id, back)} aria-current={tab === "nivel" ? undefined : "page"}>
          {T.infoTab}
        </Link>
        <Link to={editHref(user.id, back, "nivel")} aria-current={tab === "nivel" ? "page" : undefined}>
          {T.levelTab}
        </Link>
      </nav>
      {tab === "nivel" ? (
        self ? (
          <>
            <p>{T.ownLevel}.</p>
            <div className="form-actions">
              <Link to={back} className="button">
                Voltar
              </Link>
            </div>
          </>
        ) : (
          <LevelForm {...loaded} />
        )
      ) : (
        <InfoForm user={user} back={back} self={self} />
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${T.editTitle} | Limpeza` }];

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
