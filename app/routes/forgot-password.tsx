import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";

import { AuthLayout } from "~/components/auth-layout";
import { Field, FormToast, useValidatedForm, type FormActionData } from "~/components/forms";
import { ForgotPasswordSchema } from "~/lib/schemas";
import { requestPasswordReset } from "~/models/password.server";
import { requireAnonymous } from "~/session.server";
import { redirectWithToast, type ToastInput } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Recuperar senha | Limpeza" }];

const OTHER_FAILURE: ToastInput = {
  type: "error",
  title: "Erro na recuperação de senha",
  description: "Verifique o e-mail informado.",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request, context);
  const submission = parseWithZod(await request.formData(), {
    schema: ForgotPasswordSchema,
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply(), toast: OTHER_FAILURE }, { status: 400 });
  }
  const result = await requestPasswordReset({ context, request }, submission.value);
  if (!result.ok) {
    const toast: ToastInput =
      result.status === 404
        ? { type: "error", title: "Falha ao recuperar e-mail", description: "E-mail não cadastrado" }
        : { ...OTHER_FAILURE, description: result.message };
    return data<FormActionData>({ result: submission.reply(), toast }, { status: result.status });
  }
  return redirectWithToast(context, "/", {
    type: "success",
    title: "E-mail de recuperação enviado",
    description: "Abra o link enviado para o seu e-mail para escolher uma nova senha.",
  });
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const { form, fields, onSubmit, toast } = useValidatedForm(ForgotPasswordSchema, actionData, {
    invalidToast: OTHER_FAILURE,
  });
  return (
    <AuthLayout title="Recuperar senha">
      <FormToast toast={toast} />
      <p>Informe o e-mail do seu cadastro. Enviaremos um link para você escolher uma nova senha.</p>
      <Form method="post" {...getFormProps(form)} onSubmit={onSubmit} className="stack">
        <Field label="E-mail" meta={fields.email} type="email" inputProps={{ autoComplete: "email" }} />
        <button type="submit" className="button button-primary">
          Recuperar
        </button>
      </Form>
      <nav className="auth-links" aria-label="Outras ações">
        <Link to="/">Voltar ao início</Link>
      </nav>
    </AuthLayout>
  );
}
