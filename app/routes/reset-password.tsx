import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";

import { AuthLayout } from "~/components/auth-layout";
import { ErrorList, FormToast, PasswordField, useValidatedForm, type FormActionData } from "~/components/forms";
import { ResetPasswordSchema } from "~/lib/schemas";
import { resetPassword } from "~/models/password.server";
import { requireAnonymous } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Resetar senha | Limpeza" }];

const VALIDATION_TOAST: ToastInput = {
  type: "error",
  title: "Erro ao resetar senha",
  description: "Verifique os campos destacados.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request, context);
  const submission = parseWithZod(await request.formData(), { schema: ResetPasswordSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    return data<FormActionData>(
      { result: submission.reply({ hideFields: ["password", "password_confirmation"] }), toast: VALIDATION_TOAST },
      { status: 400 },
    );
  }
  const { token, password, password_confirmation } = submission.value;
  const result = await resetPassword(
    { context, request },
    { token, password, passwordConfirmation: password_confirmation },
  );
  if (!result.ok) {
    return data<FormActionData>(
      {
        result: submission.reply({ hideFields: ["password", "password_confirmation"] }),
        toast: { type: "error", title: "Erro", description: `Falha ao resetar senha. ${result.message}` },
      },
      { status: result.status },
    );
  }
  return redirectWithToast(context, "/", {
    type: "success",
    title: "Sucesso",
    description: "Senha resetada com sucesso",
  });
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { form, fields, onSubmit, toast } = useValidatedForm(ResetPasswordSchema, actionData, {
    invalidToast: VALIDATION_TOAST,
  });
  return (
    <AuthLayout title="Resetar senha">
      <FormToast toast={toast} />
      {token ? null : (
        <p className="notice notice-error" role="alert">
          Este endereço não tem o código de recuperação. Abra o link completo do e-mail ou{" "}
          <Link to="/forgot-password">peça um novo e-mail</Link>.
        </p>
      )}
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack">
        <input type="hidden" name="token" value={token} />
        <ErrorList errors={fields.token.errors} />
        <PasswordField label="Nova senha" meta={fields.password} autoComplete="new-password" />
        <PasswordField label="Confirmar nova senha" meta={fields.password_confirmation} autoComplete="new-password" />
        <button type="submit" className="button button-primary">
          Alterar senha
        </button>
      </Form>
      <nav className="auth-links" aria-label="Outras ações">
        <Link to="/">Voltar ao início</Link>
      </nav>
    </AuthLayout>
  );
}
