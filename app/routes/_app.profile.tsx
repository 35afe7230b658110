import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";

import { AVATAR_MAX_BYTES, AVATAR_TOO_BIG } from "../../api/domain/fields";
import { formatCpfText, formatPhone } from "../../api/domain/masks";

import { AvatarPicker } from "~/components/avatar-picker";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { ErrorList, Field, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { formatDateBR } from "~/lib/format";
import { ProfileFormSchema } from "~/lib/schemas";
import { changeOwnPassword, getMe, updateContact, uploadAvatar } from "~/models/users.server";
import { requirePage, signOutOnUnauthorized, updateSessionUser } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Meu perfil | Limpeza" }];

const VALIDATION_TOAST: ToastInput = {
  type: "error",
  title: "Erro ao atualizar",
  description: "Verifique os campos destacados.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requirePage(request, context, "/profile");
  const result = await getMe({ context, request, auth });
  if (!result.ok) {
    await signOutOnUnauthorized(request, context, result.status);
    throw new Response("Erro ao carregar dados, por favor atualize a página", { status: result.status });
  }
  // Formatted here: date-fns and its locale would otherwise join this page's script for one date.
  const birthDate = result.data.user.dataNascimento ? formatDateBR(result.data.user.dataNascimento) : "-";
  return { me: result.data, birthDate };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requirePage(request, context, "/profile");
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ProfileFormSchema, disableAutoCoercion: true });
  const hide = ["senhaAtual", "novaSenha", "confirmarSenha"];
  const avatar = formData.get("avatar");
  const hasAvatar = avatar instanceof File && avatar.size > 0;
  const fail = async (toast: ToastInput, status: number, fieldErrors?: Record<string, string[]>) => {
    await signOutOnUnauthorized(request, context, status);
    return data<FormActionData>(
      { result: submission.reply({ hideFields: hide, ...(fieldErrors ? { fieldErrors } : {}) }), toast },
      { status },
    );
  };

  if (submission.status !== "success") return fail(VALIDATION_TOAST, 400);
  if (hasAvatar && (!avatar.type.startsWith("image/") || avatar.size > AVATAR_MAX_BYTES)) {
    const message = avatar.size > AVATAR_MAX_BYTES ? AVATAR_TOO_BIG : "Arquivo não suportado";
    return fail({ type: "error", title: "Erro ao atualizar dados!", description: message }, 400, { avatar: [message] });
  }

  // The signed-in user's id and name come from the session: the profile cannot change them.
  const { user } = auth;
  const api = { context, request, auth };
  const { email, telefone, senhaAtual, novaSenha } = submission.value;
  let avatarUrl = user.avatarUrl;

  if (hasAvatar) {
    const result = await uploadAvatar(api, avatar);
    if (!result.ok)
      return fail({ type: "error", title: "Erro ao atualizar dados!", description: result.message }, result.status, {
        avatar: [result.message],
      });
    avatarUrl = result.data.user.avatar_url;
  }
  const update = await updateContact(api, { email, telefone });
  if (!update.ok)
    return fail(
      { type: "error", title: "Erro ao atualizar dados!", description: update.message },
      update.status,
      update.fieldErrors,
    );
  if (novaSenha) {
    const change = await changeOwnPassword(api, { telefone, password: novaSenha, oldPassword: senhaAtual });
    if (!change.ok) {
      const fieldErrors = change.fieldErrors?.oldPassword
        ? { senhaAtual: change.fieldErrors.oldPassword }
        : change.fieldErrors;
      return fail(
        { type: "error", title: "Erro ao atualizar dados!", description: change.message },
        change.status,
        fieldErrors,
      );
    }
  }
  const headers = new Headers();
  const sessionCookie = await updateSessionUser(request, context, { avatarUrl });
  if (sessionCookie) headers.append("set-cookie", sessionCookie);
  return redirectWithToast(
    context,
    "/profile",
    { type: "success", title: "Dados atualizados!", description: "Suas alterações foram salvas." },
    { headers },
  );
}

export default function Profile() {
  const { me, birthDate } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, onSubmit, toast } = useValidatedForm(ProfileFormSchema, actionData, {
    invalidToast: VALIDATION_TOAST,
    defaultValue: { email: me.user.email, telefone: formatPhone(me.user.telefone) },
  });
  const avatarErrors = actionData?.result?.error?.avatar;

  return (
    <>
      <PageHeader title="Meu perfil" />
      <FormToast toast={toast} />
      <Form
        method="post"
        encType="multipart/form-data"
        {...getFormProps(form)}
        onSubmit={onSubmit}
        className="card profile-form"
      >
        <section aria-labelledby="foto-title">
          <h2 id="foto-title">Foto</h2>
          <AvatarPicker currentUrl={me.user.avatar_url} name={me.user.nome} />
          <ErrorList errors={avatarErrors} />
        </section>
        <section aria-labelledby="dados-title">
          <h2 id="dados-title">Dados pessoais</h2>
          <dl className="facts">
            <div>
              <dt>Nome</dt>
              <dd>{me.user.nome}</dd>
            </div>
            <div>
              <dt>CPF</dt>
              <dd>{formatCpfText(me.user.cpf)}</dd>
            </div>
            <div>
              <dt>Data de nascimento</dt>
              <dd>{birthDate}</dd>
            </div>
            <div>
              <dt>Empresa principal</dt>
              <dd>
                {me.empresaPrincipal[0]
                  ? `${me.empresaPrincipal[0].Id_Empresas} - ${me.empresaPrincipal[0].NOME}`
                  : me.filial
                    ? `${me.empresa} (${me.filial})`
                    : me.empresa}
              </dd>
            </div>
            <div>
              <dt>Nível de acesso</dt>
              <dd>{me.nivelAcesso}</dd>
            </div>
          </dl>
          <div className="grid-2">
            <Field label="E-mail" meta={fields.email} type="email" inputProps={{ autoComplete: "email" }} />
            <Field
              label="Telefone"
              meta={fields.telefone}
              type="tel"
              mask="phone"
              inputProps={{ autoComplete: "tel" }}
            />
          </div>
        </section>
        <section aria-labelledby="senha-title">
          <h2 id="senha-title">Alterar senha</h2>
          <p className="muted">Preencha os três campos só se quiser trocar a senha.</p>
          <div className="grid-3">
            <PasswordField label="Senha atual" meta={fields.senhaAtual} autoComplete="current-password" />
            <PasswordField label="Nova senha" meta={fields.novaSenha} autoComplete="new-password" />
            <PasswordField label="Confirmar senha" meta={fields.confirmarSenha} autoComplete="new-password" />
          </div>
        </section>
        <div className="form-actions">
          <button type="submit" className="button button-primary">
            Salvar alterações
          </button>
        </div>
      </Form>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
